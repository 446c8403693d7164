#pragma once

// The admin keys of remote gateways, one per gateway URL, in the desktop's secret store (Secret
// Service / KWallet through QtKeychain), never in QSettings and never in a log. Every call is
// asynchronous: the secret store may prompt to unlock, so the GUI thread never waits on it; each answer
// arrives by signal, and a job that does not answer within JobTimeoutMs counts as failed.
//
// Where no secret store runs (no D-Bus session, no keyring: a bare server or a CI machine), the store
// says so (available() false, unavailableReason(), availabilityChanged) and keeps the keys it is given
// in memory for this session only; they are gone when the panel quits.

#include <QHash>
#include <QObject>
#include <QString>

namespace QKeychain {
class Job;
}

namespace switchyard::ui {

class CredentialStore final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CredentialStore)

public:
    static constexpr int JobTimeoutMs = 15000;

    enum class Availability {
        Unknown,     // not asked yet, or the first answer is pending
        Available,   // the secret store answered
        Unavailable, // no secret store: keys are kept for this session only
    };
    Q_ENUM(Availability)

    // service: the name the entries are filed under in the secret store.
    explicit CredentialStore(const QString &service = QStringLiteral("Switchyard"), QObject *parent = nullptr);
    ~CredentialStore() override;

    Availability availability() const { return m_availability; }
    // Why keys cannot be remembered (translated); empty while not Unavailable.
    QString unavailableReason() const { return m_reason; }

    // Asks the secret store whether it is there (reads an entry that does not exist). Answers with
    // availabilityChanged; load() and store() find out by themselves too.
    void probe();

    // Looks up the key of a gateway (any spelling of its URL) → keyLoaded. The session's copy answers
    // first, without asking the secret store again.
    void load(const QString &gatewayUrl);
    // Remembers the key: in the secret store when there is one, else for this session → keyStored.
    void store(const QString &gatewayUrl, const QString &key);
    // Keeps the key for this session only (the operator did not ask to remember it).
    void keepForSession(const QString &gatewayUrl, const QString &key);
    // Forgets the key everywhere → keyForgotten.
    void forget(const QString &gatewayUrl);

signals:
    void availabilityChanged(switchyard::ui::CredentialStore::Availability availability, const QString &reason);
    // found false: no key for this gateway (key is empty). The key never leaves through anything else.
    void keyLoaded(const QString &gatewayUrl, const QString &key, bool found);
    // persistent: in the secret store; false: kept for this session only (reason says why).
    void keyStored(const QString &gatewayUrl, bool persistent, const QString &reason);
    void keyForgotten(const QString &gatewayUrl);

private:
    enum class JobKind { Probe, Read, Write, Delete };
    // The entry's name for a gateway: its canonical URL, so every spelling finds the same key.
    static QString entryName(const QString &gatewayUrl);
    void run(QKeychain::Job *job, JobKind kind, const QString &url, const QString &key = {});
    void finished(QKeychain::Job *job, JobKind kind, const QString &url, const QString &key);
    void setAvailability(Availability availability, const QString &reason);

    QString m_service;
    Availability m_availability = Availability::Unknown;
    QString m_reason;
    QHash<QString, QString> m_session; // canonical URL → key, for this run of the panel only
};

} // namespace switchyard::ui
