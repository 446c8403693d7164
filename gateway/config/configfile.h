#pragma once

// Reading and writing a config file so that nothing is lost: the new text goes to a temporary file that
// replaces the old one in one rename (QSaveFile), so a crash or kill at any moment leaves either the old or
// the new file, never a torn one; the previous version is kept beside it as "<file>.bak", with the same
// permissions (a config holding keys stays private). Only a config that parses is saved: the file on disk
// is always a valid config. Errors are values that name what went wrong, so the panel can say it in the
// operator's language and the log and the management API in English.

#include "common/expected.h"
#include "config/configloader.h"

#include <QByteArray>
#include <QString>

namespace switchyard::config {

struct FileError
{
    enum class Kind {
        Invalid,          // not saved: the config has problems (listed)
        IsDirectory,      // the path names a directory
        TooBig,           // larger than any config could be (detail: the size in bytes)
        Unreadable,       // cannot be read (detail: the system's words)
        BackupUnreadable, // the current file cannot be read to keep it as the backup
        BackupUnwritable, // the backup cannot be written (path: the backup's)
        Unwritable,       // the file cannot be written
    };
    Kind kind = Kind::Unwritable;
    QString path;
    QString detail;
    ConfigProblems problems; // Invalid
    // In English, for the log and the management API's answers: what failed, with the path.
    QString toString() const;
    // Why, without the path ("it is a directory", the system's words, …).
    QString reason() const;
};

struct SavedConfig
{
    QString path;
    QString backupPath; // empty when there was no previous version to keep
};

// Reads a file that should hold a config: at most 16 MiB (a config is a few kilobytes; anything larger is
// the wrong file).
Expected<QByteArray, FileError> readConfigBytes(const QString &path);

// Writes bytes atomically, keeping what the file held before as <path>.bak. Writes nothing when the file
// already holds exactly these bytes (the backup then keeps the version before). Not validated: this is
// also how a Bifrost export is written.
Expected<SavedConfig, FileError> writeFileKeepingBackup(const QString &path, const QByteArray &bytes);

// Validates bytes as a config, then writeFileKeepingBackup. "env.NAME" references need not resolve: the
// variables belong to wherever the file is used.
Expected<SavedConfig, FileError> saveValidConfig(const QString &path, const QByteArray &bytes);

// saveValidConfig with the error in words.
Expected<SavedConfig, QString> saveConfigFile(const QString &path, const QByteArray &text);

QString backupPathFor(const QString &path);

// The text of a config file and how it was written, so that it is written back the same way: a UTF-8
// byte-order mark and CRLF line ends are kept; the text itself always has plain '\n' line ends.
struct ConfigFileText
{
    QString text;
    bool bom = false;
    bool crlf = false;

    static ConfigFileText decode(const QByteArray &bytes);
    QByteArray encode() const;
};

} // namespace switchyard::config
