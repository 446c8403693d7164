#include "keys/keysmodel.h"

#include <QApplication>
#include <QDateTime>
#include <QHash>
#include <QLocale>
#include <QPalette>
#include <limits>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString Dash = u"\u2014"_s;

bool sameUsage(const keys::KeyUsage::Snapshot &a, const keys::KeyUsage::Snapshot &b)
{
    return a.requestsThisMinute == b.requestsThisMinute && a.tokensThisMinute == b.tokensThisMinute
           && a.tokensToday == b.tokensToday && a.inFlight == b.inFlight && a.requests == b.requests
           && a.promptTokens == b.promptTokens && a.completionTokens == b.completionTokens
           && a.refused == b.refused;
}

QString dateTime(qint64 ms)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms), QLocale::ShortFormat);
}

// The table shows the day (the column stays narrow enough for every column to fit); the tooltip the time.
QString date(qint64 ms)
{
    return QLocale().toString(QDateTime::fromMSecsSinceEpoch(ms).date(), QLocale::ShortFormat);
}

bool isNumeric(int column)
{
    switch (column) {
    case VirtualKeysModel::Requests:
    case VirtualKeysModel::Tokens:
    case VirtualKeysModel::ThisMinute:
    case VirtualKeysModel::Today:
    case VirtualKeysModel::InFlight:
        return true;
    default:
        return false;
    }
}
} // namespace

VirtualKeysModel::VirtualKeysModel(QObject *parent) : QAbstractTableModel(parent) {}

VirtualKeysModel::~VirtualKeysModel() = default;

qint64 VirtualKeysModel::now() const
{
    return m_clock ? m_clock() : QDateTime::currentMSecsSinceEpoch();
}

VirtualKeysModel::KeyStatus VirtualKeysModel::statusOf(const keys::VirtualKey &key, qint64 nowMs)
{
    if (key.revokedMs != 0)
        return KeyStatus::Revoked;
    if (key.expiresMs != 0 && nowMs >= key.expiresMs)
        return KeyStatus::Expired;
    return KeyStatus::Active;
}

VirtualKeysModel::Row VirtualKeysModel::makeRow(const keys::KeyListing &listing, qint64 nowMs) const
{
    Row r{listing, statusOf(listing.key, nowMs)};
    r.listing.key.secretSha256.clear(); // nothing of the secret is kept here, not even its hash
    return r;
}

bool VirtualKeysModel::same(const Row &a, const Row &b)
{
    return a.status == b.status && a.listing.key == b.listing.key && sameUsage(a.listing.usage, b.listing.usage);
}

void VirtualKeysModel::setKeys(const QList<keys::KeyListing> &keys)
{
    const qint64 nowMs = now();
    QHash<QString, qsizetype> incoming;
    incoming.reserve(keys.size());
    for (qsizetype i = 0; i < keys.size(); ++i)
        incoming.insert(keys[i].key.id, i);

    // Keys the gateway no longer lists (a restarted gateway, another gateway's list): out, one by one
    // from the end so the rows before keep their numbers.
    for (qsizetype i = m_rows.size() - 1; i >= 0; --i) {
        if (incoming.contains(m_rows[i].listing.key.id))
            continue;
        beginRemoveRows({}, int(i), int(i));
        m_rows.removeAt(i);
        endRemoveRows();
    }
    // Keys still there: changed in place, and only when something shown changed.
    QHash<QString, qsizetype> known;
    known.reserve(m_rows.size());
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        Row &row = m_rows[i];
        known.insert(row.listing.key.id, i);
        Row fresh = makeRow(keys[incoming.value(row.listing.key.id)], nowMs);
        if (same(row, fresh))
            continue;
        row = std::move(fresh);
        emit dataChanged(index(int(i), 0), index(int(i), ColumnCount - 1));
    }
    // New keys: appended in the gateway's order (the order they were made).
    QList<Row> added;
    for (const keys::KeyListing &l : keys) {
        if (!known.contains(l.key.id)) {
            known.insert(l.key.id, -1); // a listing that names a key twice adds it once
            added.append(makeRow(l, nowMs));
        }
    }
    if (!added.isEmpty()) {
        const int first = int(m_rows.size());
        beginInsertRows({}, first, first + int(added.size()) - 1);
        m_rows.append(added);
        endInsertRows();
    }
}

void VirtualKeysModel::upsert(const keys::KeyListing &key)
{
    const int row = rowOfId(key.key.id);
    Row fresh = makeRow(key, now());
    if (row < 0) {
        const int at = int(m_rows.size());
        beginInsertRows({}, at, at);
        m_rows.append(std::move(fresh));
        endInsertRows();
        return;
    }
    if (same(m_rows[row], fresh))
        return;
    m_rows[row] = std::move(fresh);
    emit dataChanged(index(row, 0), index(row, ColumnCount - 1));
}

void VirtualKeysModel::clear()
{
    if (m_rows.isEmpty())
        return;
    beginResetModel();
    m_rows.clear();
    endResetModel();
}

int VirtualKeysModel::rowOfId(const QString &id) const
{
    for (qsizetype i = 0; i < m_rows.size(); ++i) {
        if (m_rows[i].listing.key.id == id)
            return int(i);
    }
    return -1;
}

const keys::KeyListing *VirtualKeysModel::listing(int row) const
{
    return row >= 0 && row < m_rows.size() ? &m_rows[row].listing : nullptr;
}

VirtualKeysModel::KeyStatus VirtualKeysModel::status(int row) const
{
    return row >= 0 && row < m_rows.size() ? m_rows[row].status : KeyStatus::Active;
}

QList<keys::KeyListing> VirtualKeysModel::keys() const
{
    QList<keys::KeyListing> out;
    out.reserve(m_rows.size());
    for (const Row &r : m_rows)
        out.append(r.listing);
    return out;
}

QString VirtualKeysModel::compactNumber(qint64 n)
{
    const QLocale l;
    struct Step
    {
        qint64 size;
        const char *suffix;
    };
    static constexpr Step Steps[] = {{1'000'000'000, "B"}, {1'000'000, "M"}, {1'000, "k"}};
    for (const Step &s : Steps) {
        if (n >= s.size) {
            const double v = double(n) / double(s.size);
            // 12.5k, but 200k and 1B: a decimal only while it says something.
            const bool whole = n % s.size == 0 || v >= 100;
            return l.toString(v, 'f', whole ? 0 : 1) + QLatin1StringView(s.suffix);
        }
    }
    return l.toString(n);
}

QString VirtualKeysModel::limitsText(const keys::KeyLimits &limits)
{
    QStringList parts;
    if (limits.requestsPerMinute > 0)
        parts << tr("%1 req/min").arg(compactNumber(limits.requestsPerMinute));
    if (limits.tokensPerMinute > 0)
        parts << tr("%1 tokens/min").arg(compactNumber(limits.tokensPerMinute));
    if (limits.tokensPerDay > 0)
        parts << tr("%1 tokens/day").arg(compactNumber(limits.tokensPerDay));
    if (limits.maxConcurrent > 0)
        parts << tr("%1 at once").arg(compactNumber(limits.maxConcurrent));
    return parts.isEmpty() ? tr("no limits") : parts.join(u" \u00b7 "_s);
}

int VirtualKeysModel::rowCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : int(m_rows.size());
}

int VirtualKeysModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : ColumnCount;
}

QVariant VirtualKeysModel::display(const Row &row, int column) const
{
    const QLocale l;
    const keys::VirtualKey &k = row.listing.key;
    const keys::KeyUsage::Snapshot &u = row.listing.usage;
    switch (Column(column)) {
    case Name:
        return k.name;
    case Id:
        return k.id;
    case Status:
        switch (row.status) {
        case KeyStatus::Active: return tr("Active");
        case KeyStatus::Revoked: return tr("Revoked");
        case KeyStatus::Expired: return tr("Expired");
        }
        return QString();
    case Models:
        return k.models.isEmpty() ? tr("all") : k.models.join(u", "_s);
    case Providers:
        return k.providers.isEmpty() ? tr("all") : k.providers.join(u", "_s);
    case Limits:
        return limitsText(k.limits);
    case Requests:
        return l.toString(u.requests);
    case Tokens:
        return l.toString(u.promptTokens + u.completionTokens);
    case ThisMinute:
        return tr("%1 / %2").arg(l.toString(u.requestsThisMinute), l.toString(u.tokensThisMinute));
    case Today:
        if (k.limits.tokensPerDay > 0)
            return tr("%1 of %2").arg(l.toString(u.tokensToday), compactNumber(k.limits.tokensPerDay));
        return l.toString(u.tokensToday);
    case InFlight:
        if (k.limits.maxConcurrent > 0)
            return tr("%1 of %2").arg(l.toString(u.inFlight), l.toString(k.limits.maxConcurrent));
        return l.toString(u.inFlight);
    case Created:
        return k.createdMs > 0 ? date(k.createdMs) : Dash;
    case Expires:
        return k.expiresMs > 0 ? date(k.expiresMs) : tr("never");
    case ColumnCount:
        break;
    }
    return {};
}

QVariant VirtualKeysModel::sortValue(const Row &row, int column) const
{
    const keys::VirtualKey &k = row.listing.key;
    const keys::KeyUsage::Snapshot &u = row.listing.usage;
    switch (Column(column)) {
    case Status:
        return int(row.status);
    case Requests:
        return u.requests;
    case Tokens:
        return u.promptTokens + u.completionTokens;
    case ThisMinute:
        return u.tokensThisMinute * 1'000'000 + u.requestsThisMinute; // tokens first: what costs
    case Today:
        return u.tokensToday;
    case InFlight:
        return u.inFlight;
    case Created:
        return k.createdMs;
    case Expires:
        return k.expiresMs > 0 ? k.expiresMs : std::numeric_limits<qint64>::max(); // never: last
    default:
        return display(row, column).toString().toLower();
    }
}

QVariant VirtualKeysModel::toolTip(const Row &row, int column) const
{
    const QLocale l;
    const keys::VirtualKey &k = row.listing.key;
    const keys::KeyUsage::Snapshot &u = row.listing.usage;
    switch (Column(column)) {
    case Id:
        return k.id;
    case Name:
    case Status: {
        QString text;
        switch (row.status) {
        case KeyStatus::Active:
            text = k.expiresMs > 0 ? tr("Active until %1: requests with its secret are admitted within its limits.")
                                         .arg(dateTime(k.expiresMs))
                                   : tr("Active: requests with its secret are admitted within its limits.");
            break;
        case KeyStatus::Revoked:
            text = tr("Revoked on %1: every request with its secret gets 401. A revoked key stays listed "
                      "with its usage and cannot be changed.")
                       .arg(dateTime(k.revokedMs));
            break;
        case KeyStatus::Expired:
            text = tr("Expired on %1: every request with its secret gets 401. Edit limits… can give it a new expiry.")
                       .arg(dateTime(k.expiresMs));
            break;
        }
        if (!k.secretHint.isEmpty())
            text += u'\n' + tr("Its secret looks like %1 (the gateway keeps only a hash).").arg(k.secretHint);
        return text;
    }
    case Requests:
        return tr("Requests admitted since the gateway started; %1 more were refused by the key's limits.")
            .arg(l.toString(u.refused));
    case Tokens:
        return tr("Prompt %1 + completion %2 tokens since the gateway started, as the nodes reported them.")
            .arg(l.toString(u.promptTokens), l.toString(u.completionTokens));
    case ThisMinute:
        return tr("Requests / tokens in the current minute (from :00 on the clock).");
    case Today:
        return tr("Tokens in the current UTC day.");
    case InFlight:
        return tr("Requests with this key being answered now.");
    case Limits:
        return limitsText(k.limits);
    case Models:
    case Providers:
        return display(row, column);
    case Created:
        return k.createdMs > 0 ? dateTime(k.createdMs) : QVariant();
    case Expires:
        return k.expiresMs > 0 ? dateTime(k.expiresMs) : QVariant();
    default:
        return {};
    }
}

QVariant VirtualKeysModel::data(const QModelIndex &index, int role) const
{
    if (!index.isValid() || index.row() >= m_rows.size() || index.column() >= ColumnCount)
        return {};
    const Row &row = m_rows[index.row()];
    switch (role) {
    case Qt::DisplayRole:
        return display(row, index.column());
    case SortRole:
        return sortValue(row, index.column());
    case Qt::ToolTipRole:
        return toolTip(row, index.column());
    case Qt::TextAlignmentRole:
        return isNumeric(index.column()) ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                                         : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ForegroundRole:
        // A key that no longer admits anything reads as such at a glance.
        if (row.status != KeyStatus::Active)
            return QApplication::palette().brush(QPalette::Disabled, QPalette::Text);
        return {};
    case IdRole:
        return row.listing.key.id;
    case KeyStatusRole:
        return int(row.status);
    default:
        return {};
    }
}

QVariant VirtualKeysModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal)
        return {};
    if (role == Qt::TextAlignmentRole)
        return isNumeric(section) ? QVariant(Qt::AlignRight | Qt::AlignVCenter) : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    if (role == Qt::ToolTipRole) {
        switch (Column(section)) {
        case Models: return tr("The models the key may ask for; all: any model.");
        case Providers: return tr("The providers (nodes) its requests may reach; all: any.");
        case ThisMinute: return tr("Requests / tokens in the current minute.");
        case Today: return tr("Tokens in the current UTC day, of the daily limit if it has one.");
        default: return {};
        }
    }
    if (role != Qt::DisplayRole)
        return {};
    switch (Column(section)) {
    case Name: return tr("Name");
    case Id: return tr("Id");
    case Status: return tr("Status");
    case Models: return tr("Models");
    case Providers: return tr("Providers");
    case Limits: return tr("Limits");
    case Requests: return tr("Requests");
    case Tokens: return tr("Tokens");
    case ThisMinute: return tr("This minute");
    case Today: return tr("Today");
    case InFlight: return tr("In flight");
    case Created: return tr("Created");
    case Expires: return tr("Expires");
    case ColumnCount: break;
    }
    return {};
}

} // namespace switchyard::ui
