#pragma once

// The editor's check as you type: a short pause after the last change, then the config controller's
// validation on a worker thread, so a large paste never stalls typing. Every change of the text is a new
// generation; a result that arrives after the text has changed again is dropped (a newer one is on its
// way), so what the editor shows is always about the text as it is.

#include "config/configcontroller.h"
#include "secretmask.h"

#include <QFutureWatcher>
#include <QObject>
#include <QString>

class QTimer;

namespace switchyard::ui {

class ConfigValidator final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigValidator)

public:
    struct Result
    {
        QString text; // what was validated
        config::ConfigValidation validation;
    };

    explicit ConfigValidator(QObject *parent = nullptr);
    ~ConfigValidator() override; // waits for a check still running

    void setDelay(int ms); // the pause after the last change (default 300 ms)
    void setEnvironment(config::EnvLookup env);
    // The secrets the JSON view shows masked: every check is of the text with them put back, as it would
    // be saved. unknownMaskIsProblem: a mask with no secret known at its place is a problem (this
    // process's gateway would take the eight stars for the key; a remote gateway restores them itself).
    void setSecrets(const SecretMask &secrets, bool unknownMaskIsProblem);

    // The text changed: what was validated before no longer counts. schedule: check it after the pause
    // (false while the editor replaces the whole text and validates it itself).
    void textChanged(const QString &text, bool schedule);
    // Validates text now, on this thread; it counts as the current result.
    Result validateNow(const QString &text);
    bool isPending() const { return m_validated != m_generation; }

signals:
    void started(); // a check is running on a worker thread
    void finished(const switchyard::ui::ConfigValidator::Result &result); // only current results

private:
    struct Tagged
    {
        quint64 generation = 0;
        Result result;
    };
    static Result run(const QString &text, const config::EnvLookup &env);
    // What is checked for text (the secrets put back), and the masks that stay.
    QString checkedText(const QString &text, QStringList *unresolved) const;
    static void addMaskProblems(config::ConfigValidation &v, const QStringList &unresolved);
    void startInBackground();

    QTimer *m_delay;
    QFutureWatcher<Tagged> m_running;
    config::EnvLookup m_env;
    SecretMask m_secrets;
    bool m_unknownMaskIsProblem = false;
    QString m_text;           // the text as of the last change
    quint64 m_generation = 0; // bumps with every change
    quint64 m_validated = 0;  // the generation of the result shown
};

} // namespace switchyard::ui
