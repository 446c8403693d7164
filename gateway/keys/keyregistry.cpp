#include "keys/keyregistry.h"

#include "keys/keysecret.h"

#include <QDateTime>
#include <algorithm>
#include <limits>

namespace switchyard::keys {

namespace {

void applyChange(VirtualKey &k, const KeyChange &c)
{
    if (c.name)
        k.name = *c.name;
    if (c.models)
        k.models = *c.models;
    if (c.providers)
        k.providers = *c.providers;
    if (c.requestsPerMinute)
        k.limits.requestsPerMinute = *c.requestsPerMinute;
    if (c.tokensPerMinute)
        k.limits.tokensPerMinute = *c.tokensPerMinute;
    if (c.tokensPerDay)
        k.limits.tokensPerDay = *c.tokensPerDay;
    if (c.maxConcurrent)
        k.limits.maxConcurrent = *c.maxConcurrent;
    if (c.expiresMs)
        k.expiresMs = *c.expiresMs;
}

} // namespace

std::shared_ptr<const KeyEntry> KeySet::find(QByteArrayView secret) const
{
    if (m_bySecret.isEmpty())
        return nullptr;
    const auto it = m_bySecret.constFind(secretHash(secret));
    if (it == m_bySecret.cend())
        return nullptr;
    return *it;
}

KeyCharge &KeyCharge::operator=(KeyCharge &&other) noexcept
{
    if (this != &other) {
        end(0, 0);
        m_entry = std::move(other.m_entry);
        m_registry = std::move(other.m_registry);
    }
    return *this;
}

void KeyCharge::end(qint64 promptTokens, qint64 completionTokens)
{
    if (!m_entry)
        return;
    m_entry->usage->release(promptTokens, completionTokens, m_registry ? m_registry->nowMs() : 0);
    m_entry.reset();
}

namespace {

std::atomic<quint64> g_lastGeneration{0};

} // namespace

KeyRegistry::KeyRegistry(WallClock clock) : m_clock(std::move(clock))
{
    m_snapshot.store(std::make_shared<const KeySet>());
    m_generation.store(++g_lastGeneration, std::memory_order_release);
}

std::shared_ptr<const KeySet> KeyRegistry::snapshot() const
{
    struct Copy
    {
        quint64 generation = 0;
        std::shared_ptr<const KeySet> set;
    };
    thread_local Copy copy;
    const quint64 generation = m_generation.load(std::memory_order_acquire);
    if (copy.generation != generation) {
        // The set stored before this generation was published, or a newer one: never an older one.
        copy.set = m_snapshot.load(std::memory_order_acquire);
        copy.generation = generation;
    }
    return copy.set;
}

qint64 KeyRegistry::nowMs() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

void KeyRegistry::publish()
{
    auto set = std::make_shared<KeySet>();
    for (const auto &e : m_keys) {
        // Revoked keys stay in the set, so their holder hears that the key was revoked (even when no
        // other key is active and the endpoints are open again) rather than being let in.
        set->m_bySecret.insert(e->key.secretSha256, std::make_shared<const KeyEntry>(*e));
        if (e->key.revokedMs != 0)
            continue;
        set->m_activeUntilMs = std::max(set->m_activeUntilMs,
                                        e->key.expiresMs == 0 ? std::numeric_limits<qint64>::max() : e->key.expiresMs);
    }
    m_snapshot.store(std::move(set), std::memory_order_release);
    m_generation.store(++g_lastGeneration, std::memory_order_release);
}

void KeyRegistry::persist(const VirtualKey &key)
{
    if (m_save)
        m_save(key);
}

void KeyRegistry::changedHere(const VirtualKey &key)
{
    persist(key);
    if (m_onLocalChange)
        m_onLocalChange(key);
}

Expected<KeyRegistry::Created, KeyRegistry::Error> KeyRegistry::create(const KeyChange &spec)
{
    Created out;
    out.secret = newSecret();
    VirtualKey &k = out.key;
    k.id = newKeyId();
    k.secretSha256 = secretHash(out.secret.toLatin1());
    k.secretHint = secretHint(out.secret);
    k.createdMs = nowMs();
    applyChange(k, spec);
    {
        const std::lock_guard lock(m_mutex);
        if (int(m_keys.size()) >= MaxKeys)
            return unexpected(Error::TooMany);
        m_keys.push_back(std::make_shared<KeyEntry>(KeyEntry{k, std::make_shared<KeyUsage>()}));
        publish();
        changedHere(k);
    }
    return out;
}

Expected<VirtualKey, KeyRegistry::Error> KeyRegistry::update(const QString &id, const KeyChange &change)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &e : m_keys) {
        if (e->key.id != id)
            continue;
        if (e->key.revokedMs != 0)
            return unexpected(Error::Revoked);
        applyChange(e->key, change);
        publish();
        changedHere(e->key);
        return e->key;
    }
    return unexpected(Error::NotFound);
}

Expected<VirtualKey, KeyRegistry::Error> KeyRegistry::revoke(const QString &id)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &e : m_keys) {
        if (e->key.id != id)
            continue;
        if (e->key.revokedMs == 0) {
            e->key.revokedMs = nowMs();
            publish();
            changedHere(e->key);
        }
        return e->key;
    }
    return unexpected(Error::NotFound);
}

std::vector<KeyRegistry::Listed> KeyRegistry::list() const
{
    const qint64 now = nowMs();
    const std::lock_guard lock(m_mutex);
    std::vector<Listed> out;
    out.reserve(m_keys.size());
    for (const auto &e : m_keys)
        out.push_back({e->key, e->usage->snapshot(now)});
    return out;
}

std::optional<KeyRegistry::Listed> KeyRegistry::get(const QString &id) const
{
    const qint64 now = nowMs();
    const std::lock_guard lock(m_mutex);
    for (const auto &e : m_keys) {
        if (e->key.id == id)
            return Listed{e->key, e->usage->snapshot(now)};
    }
    return std::nullopt;
}

void KeyRegistry::load(const std::vector<VirtualKey> &keys)
{
    const std::lock_guard lock(m_mutex);
    m_keys.clear();
    std::vector<VirtualKey> inOrder = keys;
    std::stable_sort(inOrder.begin(), inOrder.end(),
                     [](const VirtualKey &a, const VirtualKey &b) { return a.createdMs < b.createdMs; });
    for (const VirtualKey &k : inOrder) {
        if (int(m_keys.size()) >= MaxKeys)
            break;
        m_keys.push_back(std::make_shared<KeyEntry>(KeyEntry{k, std::make_shared<KeyUsage>()}));
    }
    publish();
}

void KeyRegistry::setPersistence(std::function<void(const VirtualKey &)> save)
{
    const std::lock_guard lock(m_mutex);
    m_save = std::move(save);
}

void KeyRegistry::carryOverToday(const QString &id, qint64 tokens)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &e : m_keys) {
        if (e->key.id == id) {
            e->usage->carryOverToday(tokens, nowMs());
            return;
        }
    }
}

std::vector<std::pair<VirtualKey, std::shared_ptr<KeyUsage>>> KeyRegistry::entries() const
{
    const std::lock_guard lock(m_mutex);
    std::vector<std::pair<VirtualKey, std::shared_ptr<KeyUsage>>> out;
    out.reserve(m_keys.size());
    for (const auto &e : m_keys)
        out.emplace_back(e->key, e->usage);
    return out;
}

void KeyRegistry::setChangeListener(std::function<void(const VirtualKey &)> listener)
{
    const std::lock_guard lock(m_mutex);
    m_onLocalChange = std::move(listener);
}

bool KeyRegistry::mergeShared(const VirtualKey &key)
{
    const std::lock_guard lock(m_mutex);
    for (const auto &e : m_keys) {
        if (e->key.id != key.id)
            continue;
        VirtualKey merged = key;
        // A revocation made anywhere stands, whichever copy arrives later.
        if (e->key.revokedMs != 0)
            merged.revokedMs = merged.revokedMs != 0 ? std::min(merged.revokedMs, e->key.revokedMs) : e->key.revokedMs;
        if (merged == e->key)
            return false;
        e->key = merged;
        publish();
        persist(merged);
        return true;
    }
    if (int(m_keys.size()) >= MaxKeys)
        return false;
    m_keys.push_back(std::make_shared<KeyEntry>(KeyEntry{key, std::make_shared<KeyUsage>()}));
    publish();
    persist(key);
    return true;
}

} // namespace switchyard::keys
