#include "config/bifrostexport.h"

#include "config/configreader.h"
#include "config/strictjson.h"

#include <exception>
#include <string>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::config {

namespace {

bool isUnderSwitchyard(const ConfigProblem &p)
{
    return p.path == u"switchyard"_s || p.path.startsWith(u"switchyard."_s) ||
           p.path.startsWith(u"switchyard["_s);
}

Expected<QByteArray, ConfigProblems> exportValidated(QByteArrayView json)
{
    ConfigProblems problems;
    std::optional<Json> doc = parseStrictJson(json, problems);
    if (!doc)
        return unexpected(problems);
    // What is dropped cannot hurt the export: forget problems found inside `switchyard`.
    problems.removeIf(isUnderSwitchyard);
    if (doc->is_object())
        doc->erase("switchyard");
    // Validate what is exported. Environment references stay as written (the target resolves them),
    // so every variable counts as set here.
    const EnvLookup anyVariable = [](const QString &) -> std::optional<QString> { return QString(); };
    readConfig(*doc, anyVariable, problems);
    if (!problems.isEmpty())
        return unexpected(problems);
    std::string out = doc->dump(2);
    out += '\n';
    return QByteArray(out.data(), qsizetype(out.size()));
}

} // namespace

Expected<QByteArray, ConfigProblems> exportBifrostConfig(QByteArrayView json)
{
    // Nothing throws across the API: an exception here (allocation failure, a bug) becomes a problem.
    try {
        return exportValidated(json);
    } catch (const std::exception &e) {
        return unexpected(ConfigProblems{ConfigProblem{
            {}, 0, 0, u"internal error while exporting the config: "_s + QString::fromUtf8(e.what())}});
    } catch (...) {
        return unexpected(
            ConfigProblems{ConfigProblem{{}, 0, 0, u"internal error while exporting the config"_s}});
    }
}

} // namespace switchyard::config
