#include "config/configfile.h"

#include "config/configloader.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

QString backupPathFor(const QString &path)
{
    return path + u".bak"_s;
}

Expected<SavedConfig, QString> saveConfigFile(const QString &path, const QByteArray &text)
{
    const auto parsed = parseConfig(text);
    if (!parsed) {
        const ConfigProblems &problems = parsed.error();
        return unexpected(u"not saved, the config is invalid: "_s % problems.first().toString() %
                          (problems.size() > 1
                               ? u" (and "_s % QString::number(problems.size() - 1) % u" more)"_s
                               : QString()));
    }
    SavedConfig saved;
    saved.path = path;
    QFile current(path);
    if (current.exists()) {
        // The backup is written the same atomic way; a failure to keep it stops the save, since the
        // operator relies on being able to go back.
        if (!current.open(QIODevice::ReadOnly))
            return unexpected(u"cannot read "_s % path % u" to back it up: "_s % current.errorString());
        const QByteArray previous = current.readAll();
        current.close();
        if (previous != text) {
            QSaveFile backup(backupPathFor(path));
            if (!backup.open(QIODevice::WriteOnly) || backup.write(previous) != previous.size() ||
                !backup.commit())
                return unexpected(u"cannot write the backup "_s % backupPathFor(path) % u": "_s %
                                  backup.errorString());
            saved.backupPath = backupPathFor(path);
        }
    }
    QSaveFile file(path);
    if (!file.open(QIODevice::WriteOnly))
        return unexpected(u"cannot write "_s % path % u": "_s % file.errorString());
    if (file.write(text) != text.size() || !file.commit())
        return unexpected(u"cannot write "_s % path % u": "_s % file.errorString());
    return saved;
}

} // namespace switchyard::config
