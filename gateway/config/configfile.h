#pragma once

// Writing a config file so that nothing is lost: the new text goes to a temporary file that replaces
// the old one in one rename (QSaveFile), so a crash or kill at any moment leaves either the old or the
// new file, never a torn one; the previous version is kept beside it as "<file>.bak". Only a config
// that parses is written: the file on disk is always a valid config.

#include "common/expected.h"

#include <QByteArray>
#include <QString>

namespace switchyard::config {

struct SavedConfig
{
    QString path;
    QString backupPath; // empty when there was no previous file
};

// Validates `text` (config::parseConfig with the process environment), then saves it atomically and
// keeps the previous file as <path>.bak. The error names the problem or the file system failure.
Expected<SavedConfig, QString> saveConfigFile(const QString &path, const QByteArray &text);

QString backupPathFor(const QString &path);

} // namespace switchyard::config
