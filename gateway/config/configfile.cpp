#include "config/configfile.h"

#include <QFile>
#include <QFileInfo>
#include <QSaveFile>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

constexpr qint64 MaxConfigBytes = 16LL * 1024 * 1024;
const QByteArray Bom("\xEF\xBB\xBF");

FileError fileError(FileError::Kind kind, const QString &path, const QString &detail = {})
{
    FileError e;
    e.kind = kind;
    e.path = path;
    e.detail = detail;
    return e;
}

} // namespace

QString FileError::reason() const
{
    switch (kind) {
    case Kind::Invalid: {
        const QString first = problems.isEmpty() ? QString() : problems.first().toString();
        return u"the config is invalid: "_s % first %
               (problems.size() > 1 ? u" (and "_s % QString::number(problems.size() - 1) % u" more)"_s
                                    : QString());
    }
    case Kind::IsDirectory:
        return u"it is a directory"_s;
    case Kind::TooBig:
        return u"the file is "_s % detail % u" bytes, too big to be a config"_s;
    case Kind::Unreadable:
    case Kind::BackupUnreadable:
    case Kind::BackupUnwritable:
    case Kind::Unwritable:
        return detail;
    }
    return {};
}

QString FileError::toString() const
{
    switch (kind) {
    case Kind::Invalid:
        return u"not saved, "_s % reason();
    case Kind::IsDirectory:
    case Kind::TooBig:
        return path % u": "_s % reason();
    case Kind::Unreadable:
        return u"cannot read "_s % path % u": "_s % detail;
    case Kind::BackupUnreadable:
        return u"cannot read "_s % path % u" to back it up: "_s % detail;
    case Kind::BackupUnwritable:
        return u"cannot write the backup "_s % path % u": "_s % detail;
    case Kind::Unwritable:
        return u"cannot write "_s % path % u": "_s % detail;
    }
    return {};
}

QString backupPathFor(const QString &path)
{
    return path + u".bak"_s;
}

Expected<QByteArray, FileError> readConfigBytes(const QString &path)
{
    if (QFileInfo(path).isDir())
        return unexpected(fileError(FileError::Kind::IsDirectory, path));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return unexpected(fileError(FileError::Kind::Unreadable, path, f.errorString()));
    if (f.size() > MaxConfigBytes)
        return unexpected(fileError(FileError::Kind::TooBig, path, QString::number(f.size())));
    QByteArray bytes = f.read(MaxConfigBytes + 1);
    if (f.error() != QFileDevice::NoError)
        return unexpected(fileError(FileError::Kind::Unreadable, path, f.errorString()));
    return bytes;
}

Expected<SavedConfig, FileError> writeFileKeepingBackup(const QString &path, const QByteArray &bytes)
{
    const QFileInfo info(path);
    if (info.isDir())
        return unexpected(fileError(FileError::Kind::IsDirectory, path));
    SavedConfig saved;
    saved.path = path;
    if (info.exists()) {
        QFile old(path);
        if (!old.open(QIODevice::ReadOnly))
            return unexpected(fileError(FileError::Kind::BackupUnreadable, path, old.errorString()));
        const QByteArray previous = old.readAll();
        if (previous == bytes)
            return saved; // nothing to write, and the backup keeps the version before
        // The backup first, itself atomic: a crash leaves either the old backup or the new one. A failure
        // to keep it stops the save, since the operator relies on being able to go back.
        const QString bak = backupPathFor(path);
        QSaveFile backup(bak);
        if (!backup.open(QIODevice::WriteOnly) || backup.write(previous) != previous.size() ||
            !backup.commit())
            return unexpected(fileError(FileError::Kind::BackupUnwritable, bak, backup.errorString()));
        QFile::setPermissions(bak, old.permissions());
        saved.backupPath = bak;
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly))
        return unexpected(fileError(FileError::Kind::Unwritable, path, f.errorString()));
    if (f.write(bytes) != bytes.size()) {
        const QString why = f.errorString();
        f.cancelWriting();
        return unexpected(fileError(FileError::Kind::Unwritable, path, why));
    }
    if (!f.commit())
        return unexpected(fileError(FileError::Kind::Unwritable, path, f.errorString()));
    return saved;
}

Expected<SavedConfig, FileError> saveValidConfig(const QString &path, const QByteArray &bytes)
{
    const EnvLookup anyVariable = [](const QString &) -> std::optional<QString> { return u"set"_s; };
    const QByteArrayView json = bytes.startsWith(Bom) ? QByteArrayView(bytes).sliced(Bom.size()) : bytes;
    const auto parsed = parseConfig(json, anyVariable);
    if (!parsed) {
        FileError e = fileError(FileError::Kind::Invalid, path);
        e.problems = parsed.error();
        return unexpected(std::move(e));
    }
    return writeFileKeepingBackup(path, bytes);
}

Expected<SavedConfig, QString> saveConfigFile(const QString &path, const QByteArray &text)
{
    auto saved = saveValidConfig(path, text);
    if (!saved)
        return unexpected(saved.error().toString());
    return *saved;
}

ConfigFileText ConfigFileText::decode(const QByteArray &bytes)
{
    ConfigFileText f;
    f.bom = bytes.startsWith(Bom);
    f.text = QString::fromUtf8(f.bom ? bytes.mid(Bom.size()) : bytes);
    f.crlf = f.text.contains(u"\r\n"_s);
    f.text.replace(u"\r\n"_s, u"\n"_s);
    return f;
}

QByteArray ConfigFileText::encode() const
{
    QString t = text;
    if (crlf)
        t.replace(u"\n"_s, u"\r\n"_s);
    QByteArray bytes = t.toUtf8();
    if (bom)
        bytes.prepend(Bom);
    return bytes;
}

} // namespace switchyard::config
