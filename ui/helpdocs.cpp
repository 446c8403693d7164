#include "helpdocs.h"

#include <QCoreApplication>
#include <QDir>
#include <QFileInfo>
#include <QStringList>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString WebPage = u"https://github.com/switchyard/switchyard#readme"_s;
}

QUrl documentationUrlFrom(const QStringList &candidates)
{
    for (const QString &path : candidates) {
        const QFileInfo info(path);
        if (info.isFile() && info.isReadable())
            return QUrl::fromLocalFile(info.canonicalFilePath());
    }
    return QUrl(WebPage);
}

QUrl documentationUrl()
{
    const QDir bin(QCoreApplication::applicationDirPath());
    QStringList candidates = {bin.filePath(u"../share/doc/switchyard/README.md"_s)};
#ifdef SWITCHYARD_SOURCE_DIR
    candidates.append(QStringLiteral(SWITCHYARD_SOURCE_DIR "/README.md"));
#endif
    return documentationUrlFrom(candidates);
}

} // namespace switchyard::ui
