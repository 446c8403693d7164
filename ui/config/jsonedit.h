#pragma once

// The form view's edits, as changes to the JSON text: set a value, remove a member or an element, rename
// a member, append to an array. Each is resolved against the text as it is now (by the loader's paths,
// see jsontextindex.h) into one replacement of a range, so everything the edit does not touch keeps its
// formatting, and the editor can apply it as one undoable step. New members follow the indentation of
// their neighbours.

#include "jsontextindex.h"

#include <QList>
#include <QString>
#include <optional>

namespace switchyard::ui {

struct TextChange
{
    int start = 0; // replace [start, end) with text
    int end = 0;
    QString text;
};

struct JsonEdit
{
    enum class Op { Set, Remove, Rename, Append };
    Op op = Op::Set;
    JsonPath path;
    // Set / Append: the new value as JSON text (multi-line values are indented by 2 spaces per level
    // and re-indented to fit where they land). Rename: the new member name (plain text).
    QString value;

    // Set replaces the value at path; when it is missing, the member is added (with any missing objects
    // on the way, e.g. "switchyard" and "routing" for switchyard.routing.default_strategy).
    static JsonEdit set(JsonPath path, QString json) { return {Op::Set, std::move(path), std::move(json)}; }
    static JsonEdit remove(JsonPath path) { return {Op::Remove, std::move(path), {}}; }
    static JsonEdit rename(JsonPath path, QString name)
    {
        return {Op::Rename, std::move(path), std::move(name)};
    }
    static JsonEdit append(JsonPath arrayPath, QString json)
    {
        return {Op::Append, std::move(arrayPath), std::move(json)};
    }
};

// The change that performs edit on text (whose index is given), or nullopt when it cannot be done (the
// path leads through a value that is not an object, an index that does not exist, an unreadable text).
// Removing something that is not there is no change (an empty change at 0..0 is returned).
std::optional<TextChange> resolveEdit(const JsonTextIndex &index, QStringView text, const JsonEdit &edit);

// Applies edits one after another (each resolved against the result of the previous one). nullopt if any
// cannot be resolved.
std::optional<QString> applyEdits(QString text, const QList<JsonEdit> &edits);

// A JSON array of strings on one line: ["a", "b"].
QString jsonStringArray(const QStringList &items);

} // namespace switchyard::ui
