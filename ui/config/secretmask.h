#pragma once

// The JSON view never shows a literal secret: a provider key's value, an extra header's value,
// switchyard.api_keys and admin_keys, and a redis_url with a password in it, appear as "********"
// (link::MaskedSecret, what GET /api/config shows),
// the form shows them as dots. env.NAME references stay as written: they are no secret. The secrets
// themselves stay here, each at its place, found by the rule link::restoreMaskedSecrets uses for a masked
// config that comes back over the management API: a key by its provider's and its own name (else its
// position), a header by provider and name, api_keys / admin_keys by position. Saving, applying,
// exporting and checking use the text with them put back, so the file on disk keeps the real value
// wherever the mask still stands; a value typed over the mask is simply the new value.
//
// Working on the text (through JsonTextIndex), not on a parsed document: the file keeps its layout, and
// only the masked strings change.

#include <QHash>
#include <QString>
#include <QStringList>

namespace switchyard::ui {

class SecretMask final
{
public:
    // The text with every literal secret replaced by the mask; the secrets are remembered (added to the
    // ones known, a place seen again takes the new value).
    QString mask(const QString &text);
    // The text with each mask at a remembered place back to its secret, as written in the file (escapes
    // included). A text that is not complete JSON comes back unchanged (it can be neither saved nor
    // applied). unresolved, if given, receives the path of each mask with no secret known for its place.
    QString unmask(const QString &text, QStringList *unresolved = nullptr) const;

    bool isEmpty() const { return m_secrets.isEmpty(); }
    void clear() { m_secrets.clear(); }

private:
    QHash<QString, QString> m_secrets; // place → the JSON string token as it was written
};

} // namespace switchyard::ui
