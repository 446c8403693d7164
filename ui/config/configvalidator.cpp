#include "configvalidator.h"

#include <QTimer>

namespace switchyard::ui {

ConfigValidator::ConfigValidator(QObject *parent)
    : QObject(parent), m_delay(new QTimer(this)), m_env(config::processEnvironment())
{
    m_delay->setSingleShot(true);
    m_delay->setInterval(300);
    connect(m_delay, &QTimer::timeout, this, &ConfigValidator::startInBackground);
    connect(&m_running, &QFutureWatcher<Tagged>::finished, this, [this] {
        if (m_running.future().resultCount() == 0)
            return;
        const Tagged t = m_running.result();
        if (t.generation != m_generation)
            return; // the text has changed since: a newer check is on its way
        m_validated = t.generation;
        emit finished(t.result);
    });
}

ConfigValidator::~ConfigValidator()
{
    m_running.waitForFinished();
}

void ConfigValidator::setDelay(int ms)
{
    m_delay->setInterval(std::max(0, ms));
}

void ConfigValidator::setEnvironment(config::EnvLookup env)
{
    m_env = std::move(env);
}

ConfigValidator::Result ConfigValidator::run(const QString &text, const config::EnvLookup &env)
{
    Result r;
    r.text = text;
    if (!text.trimmed().isEmpty()) // no text is no config yet, not a problem
        r.validation = config::ConfigController::validate(text.toUtf8(), env);
    return r;
}

void ConfigValidator::textChanged(const QString &text, bool schedule)
{
    m_text = text;
    ++m_generation;
    if (schedule)
        m_delay->start();
}

ConfigValidator::Result ConfigValidator::validateNow(const QString &text)
{
    m_delay->stop();
    if (text != m_text)
        textChanged(text, false);
    m_validated = m_generation;
    return run(text, m_env);
}

void ConfigValidator::startInBackground()
{
    const quint64 generation = m_generation;
    const QString text = m_text;
    if (text.trimmed().isEmpty()) {
        m_validated = generation;
        emit finished(run(text, m_env));
        return;
    }
    m_running.setFuture(config::ConfigController::validateInBackground(text.toUtf8(), m_env)
                            .then([generation, text](const config::ConfigValidation &v) {
                                return Tagged{generation, Result{text, v}};
                            }));
    emit started();
}

} // namespace switchyard::ui
