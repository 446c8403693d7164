#include "connect/credentialstore.h"

#include "connect/gatewayurl.h"

#include <qt6keychain/keychain.h>

#include <QTimer>
#include <memory>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
// An entry no one writes: reading it tells whether the secret store answers at all.
const QString ProbeEntry = u"switchyard-probe"_s;
}

CredentialStore::CredentialStore(const QString &service, QObject *parent) : QObject(parent), m_service(service)
{
}

CredentialStore::~CredentialStore() = default;

QString CredentialStore::entryName(const QString &gatewayUrl)
{
    auto url = GatewayUrl::parse(gatewayUrl);
    return url ? GatewayUrl::canonical(*url) : gatewayUrl.trimmed();
}

void CredentialStore::probe()
{
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setKey(ProbeEntry);
    run(job, JobKind::Probe, {});
}

void CredentialStore::load(const QString &gatewayUrl)
{
    const QString url = entryName(gatewayUrl);
    if (auto it = m_session.constFind(url); it != m_session.constEnd()) {
        const QString key = *it;
        QTimer::singleShot(0, this, [this, url, key] { emit keyLoaded(url, key, true); });
        return;
    }
    if (m_availability == Availability::Unavailable) {
        QTimer::singleShot(0, this, [this, url] { emit keyLoaded(url, QString(), false); });
        return;
    }
    auto *job = new QKeychain::ReadPasswordJob(m_service, this);
    job->setKey(url);
    run(job, JobKind::Read, url);
}

void CredentialStore::store(const QString &gatewayUrl, const QString &key)
{
    const QString url = entryName(gatewayUrl);
    m_session.insert(url, key);
    if (m_availability == Availability::Unavailable) {
        QTimer::singleShot(0, this, [this, url] { emit keyStored(url, false, m_reason); });
        return;
    }
    auto *job = new QKeychain::WritePasswordJob(m_service, this);
    job->setKey(url);
    job->setTextData(key);
    run(job, JobKind::Write, url, key);
}

void CredentialStore::keepForSession(const QString &gatewayUrl, const QString &key)
{
    m_session.insert(entryName(gatewayUrl), key);
}

void CredentialStore::forget(const QString &gatewayUrl)
{
    const QString url = entryName(gatewayUrl);
    m_session.remove(url);
    if (m_availability == Availability::Unavailable) {
        QTimer::singleShot(0, this, [this, url] { emit keyForgotten(url); });
        return;
    }
    auto *job = new QKeychain::DeletePasswordJob(m_service, this);
    job->setKey(url);
    run(job, JobKind::Delete, url);
}

void CredentialStore::run(QKeychain::Job *job, JobKind kind, const QString &url, const QString &key)
{
    // Never the plain-text QSettings fallback QtKeychain offers: a key on disk in clear is what the
    // secret store is there to avoid.
    job->setInsecureFallback(false);
    job->setAutoDelete(false);
    // Whichever comes first, the job's answer or the timeout, decides; the other is ignored.
    auto done = std::make_shared<bool>(false);
    connect(job, &QKeychain::Job::finished, this, [this, job, kind, url, key, done] {
        job->deleteLater();
        if (*done)
            return; // timed out already: the caller was told
        *done = true;
        finished(job, kind, url, key);
    });
    QTimer::singleShot(JobTimeoutMs, this, [this, kind, url, done] {
        if (*done)
            return;
        *done = true;
        const QString reason = tr("The secret store did not answer within %1 s.").arg(JobTimeoutMs / 1000);
        switch (kind) {
        case JobKind::Probe:
            setAvailability(Availability::Unavailable, reason);
            break;
        case JobKind::Read:
            emit keyLoaded(url, QString(), false);
            break;
        case JobKind::Write:
            emit keyStored(url, false, reason);
            break;
        case JobKind::Delete:
            emit keyForgotten(url);
            break;
        }
    });
    job->start();
}

void CredentialStore::finished(QKeychain::Job *job, JobKind kind, const QString &url, const QString &key)
{
    Q_UNUSED(key)
    const QKeychain::Error error = job->error();
    // No backend at all (no D-Bus session, no keyring daemon), or one that failed outright: keys can
    // only be kept for the session until the next probe finds a store.
    const bool noStore = error == QKeychain::NoBackendAvailable || error == QKeychain::NotImplemented
        || error == QKeychain::OtherError;
    if (noStore) {
        // Without a D-Bus session QtKeychain only says "Unknown error": say what is missing instead.
        const QString detail = job->errorString();
        const bool vague = detail.isEmpty() || detail == u"Unknown error"_s;
        setAvailability(Availability::Unavailable,
                        vague ? tr("No secret store is available: no desktop keyring (Secret Service or KWallet) "
                                   "answered over D-Bus. Keys are kept for this session only.")
                              : tr("No secret store is available (%1). Keys are kept for this session only.").arg(detail));
    } else if (error != QKeychain::AccessDeniedByUser && error != QKeychain::AccessDenied) {
        setAvailability(Availability::Available, {});
    }

    switch (kind) {
    case JobKind::Probe:
        if (error == QKeychain::AccessDenied || error == QKeychain::AccessDeniedByUser)
            setAvailability(Availability::Available, {});
        break;
    case JobKind::Read: {
        const auto *read = static_cast<QKeychain::ReadPasswordJob *>(job);
        if (error == QKeychain::NoError) {
            const QString found = read->textData();
            m_session.insert(url, found);
            emit keyLoaded(url, found, true);
        } else {
            emit keyLoaded(url, QString(), false);
        }
        break;
    }
    case JobKind::Write:
        if (error == QKeychain::NoError)
            emit keyStored(url, true, {});
        else if (noStore)
            emit keyStored(url, false, m_reason);
        else
            emit keyStored(url, false,
                           tr("The secret store refused to keep the key (%1). It is kept for this session only.")
                               .arg(job->errorString()));
        break;
    case JobKind::Delete:
        emit keyForgotten(url);
        break;
    }
}

void CredentialStore::setAvailability(Availability availability, const QString &reason)
{
    if (m_availability == availability && m_reason == reason)
        return;
    m_availability = availability;
    m_reason = reason;
    emit availabilityChanged(availability, reason);
}

} // namespace switchyard::ui
