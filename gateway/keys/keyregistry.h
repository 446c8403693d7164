#pragma once

// The gateway's virtual keys: made, changed and revoked through the management API (any thread, one
// at a time), read on every request by the workers. Readers take the current KeySet, an immutable
// snapshot, and a key revoked before DELETE /api/keys/{id} answers is refused by every request that
// starts after it. No lock on the request path: std::atomic<std::shared_ptr> is not lock-free in
// libstdc++ (each load takes a spin bit), so each thread keeps its own copy of the current set and
// reads one atomic generation number per request; it loads the set again only after a change. Each key's usage
// (keys/keyusage.h) lives apart from the snapshots, so it continues across changes to the key.
//
// Keys reach the disk through the persistence callback (the history database), which is given every
// key as it is made or changed; at start the stored keys are loaded back. The wall clock (ms since the
// epoch: minute and day windows, expiry) can be replaced by a test.

#include "common/expected.h"
#include "keys/keyusage.h"
#include "keys/virtualkey.h"

#include <QByteArray>
#include <QHash>
#include <QMetaType>
#include <QString>
#include <atomic>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <utility>
#include <vector>

namespace switchyard::keys {

struct KeyEntry
{
    VirtualKey key;
    std::shared_ptr<KeyUsage> usage;
};

// The keys as one request sees them.
class KeySet final
{
public:
    // The key whose secret this is (by its SHA-256), active or not (see VirtualKey::isActive), or null.
    std::shared_ptr<const KeyEntry> find(QByteArrayView secret) const;
    // Whether any key is active: then the OpenAI endpoints need a key (docs/KEYS.md).
    bool anyActive(qint64 nowMs) const { return nowMs < m_activeUntilMs; }
    bool isEmpty() const { return m_bySecret.isEmpty(); }

private:
    friend class KeyRegistry;
    QHash<QByteArray, std::shared_ptr<const KeyEntry>> m_bySecret;
    qint64 m_activeUntilMs = 0; // when the last key still active expires (max for one that never does)
};

class KeyRegistry;

// An admitted request's hold on its key: out of flight and its tokens charged when it ends (end()), or
// when it is dropped without an answer (then without tokens).
class KeyCharge final
{
public:
    KeyCharge(std::shared_ptr<const KeyEntry> entry, std::shared_ptr<const KeyRegistry> registry)
        : m_entry(std::move(entry)), m_registry(std::move(registry))
    {
    }
    KeyCharge(KeyCharge &&other) noexcept = default;
    KeyCharge &operator=(KeyCharge &&other) noexcept;
    KeyCharge(const KeyCharge &) = delete;
    KeyCharge &operator=(const KeyCharge &) = delete;
    ~KeyCharge() { end(0, 0); }

    void end(qint64 promptTokens, qint64 completionTokens);
    const KeyEntry *entry() const { return m_entry.get(); }

private:
    std::shared_ptr<const KeyEntry> m_entry; // null once ended
    std::shared_ptr<const KeyRegistry> m_registry;
};

// A key as GET /api/keys lists it and the panel's Keys view shows it: without its secret (a remote
// gateway's listing has no hash either), with its usage now.
struct KeyListing
{
    VirtualKey key;
    KeyUsage::Snapshot usage;
};

// What POST /api/keys and PATCH /api/keys/{id} ask for; a field left unset is left as it is.
struct KeyChange
{
    std::optional<QString> name;
    std::optional<QStringList> models;
    std::optional<QStringList> providers;
    std::optional<qint64> requestsPerMinute, tokensPerMinute, tokensPerDay, maxConcurrent;
    std::optional<qint64> expiresMs; // 0 = never
};

class KeyRegistry final
{
    Q_DISABLE_COPY_MOVE(KeyRegistry)

public:
    using WallClock = std::function<qint64()>;
    static constexpr int MaxKeys = 10'000; // revoked ones included: they stay listed with their usage

    explicit KeyRegistry(WallClock clock = {});
    // For tests, before the gateway serves: minutes and days then pass when the test says.
    void setWallClock(WallClock clock) { m_clock = std::move(clock); }

    std::shared_ptr<const KeySet> snapshot() const;
    qint64 nowMs() const;

    struct Created
    {
        VirtualKey key;
        QString secret; // shown once
    };
    enum class Error { NotFound, TooMany, Revoked };
    Expected<Created, Error> create(const KeyChange &spec);
    Expected<VirtualKey, Error> update(const QString &id, const KeyChange &change);
    Expected<VirtualKey, Error> revoke(const QString &id);

    using Listed = KeyListing;
    std::vector<Listed> list() const; // in the order they were made
    std::optional<Listed> get(const QString &id) const;

    // The keys stored from an earlier run (before the gateway serves). Replaces what is here.
    void load(const std::vector<VirtualKey> &keys);
    void setPersistence(std::function<void(const VirtualKey &)> save);
    // See KeyUsage::carryOverToday. Does nothing for an unknown id.
    void carryOverToday(const QString &id, qint64 tokens);

    // Across replicas (keys/sharedlimits.h). Every key with its usage, in the order made.
    std::vector<std::pair<VirtualKey, std::shared_ptr<KeyUsage>>> entries() const;
    // Told of each key made, changed or revoked here (not of those merged from elsewhere), on the
    // caller's thread with the registry's lock held: it must only take note.
    void setChangeListener(std::function<void(const VirtualKey &)> listener);
    // A key as another replica made, changed or revoked it: added when new, else taken over (a
    // revocation is never undone). Written to the history; not told to the change listener. Returns
    // whether anything changed.
    bool mergeShared(const VirtualKey &key);

private:
    void publish(); // with m_mutex held
    void persist(const VirtualKey &key);
    void changedHere(const VirtualKey &key); // persist, and tell the change listener

    WallClock m_clock;
    mutable std::mutex m_mutex;
    std::vector<std::shared_ptr<KeyEntry>> m_keys; // in the order made
    std::function<void(const VirtualKey &)> m_save;
    std::function<void(const VirtualKey &)> m_onLocalChange;
    std::atomic<std::shared_ptr<const KeySet>> m_snapshot;
    // Which set m_snapshot holds: a number unique across every registry of the process (so a thread's
    // copy, kept per thread and not per registry, can never be taken for another registry's set).
    std::atomic<quint64> m_generation{0};
};

} // namespace switchyard::keys

Q_DECLARE_METATYPE(switchyard::keys::KeyListing)
