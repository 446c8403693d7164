#include "configvalidator.h"

#include "link/maskedsecrets.h"

#include <QTimer>

using namespace Qt::Literals::StringLiterals;

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

void ConfigValidator::setSecrets(const SecretMask &secrets, bool unknownMaskIsProblem)
{
    m_secrets = secrets;
    m_unknownMaskIsProblem = unknownMaskIsProblem;
}

QString ConfigValidator::checkedText(const QString &text, QStringList *unresolved) const
{
    return m_secrets.unmask(text, m_unknownMaskIsProblem ? unresolved : nullptr);
}

void ConfigValidator::addMaskProblems(config::ConfigValidation &v, const QStringList &unresolved)
{
    if (unresolved.isEmpty())
        return;
    for (const QString &path : unresolved)
        v.problems.append({path, 0, 0,
                           u"is masked (\"%1\") but its secret is not known here; type the value"_s.arg(
                               link::MaskedSecret)});
    v.config.reset();
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
    QStringList unresolved;
    Result r = run(checkedText(text, &unresolved), m_env);
    r.text = text; // problems are placed in the text as shown
    addMaskProblems(r.validation, unresolved);
    return r;
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
    QStringList unresolved;
    const QString checked = checkedText(text, &unresolved);
    m_running.setFuture(config::ConfigController::validateInBackground(checked.toUtf8(), m_env)
                            .then([generation, text, unresolved](config::ConfigValidation v) {
                                addMaskProblems(v, unresolved);
                                return Tagged{generation, Result{text, v}};
                            }));
    emit started();
}

} // namespace switchyard::ui
