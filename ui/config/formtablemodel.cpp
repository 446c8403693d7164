#include "formtablemodel.h"

#include "jsontextindex.h"

#include <QApplication>
#include <QColor>
#include <QIcon>
#include <QStyle>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

const QColor ProblemBackground(0xfd, 0xec, 0xea);

QStringList messagesIn(const RowProblems &problems, int column, bool all)
{
    QStringList out;
    for (const auto &[c, m] : problems) {
        if (all || c == column)
            out << m;
    }
    return out;
}

} // namespace

RowProblems problemsFor(const config::ConfigProblems &problems, const QString &provider, int keyIndex,
                        const std::function<int(const JsonPath &rest)> &columnOf)
{
    RowProblems out;
    for (const config::ConfigProblem &p : problems) {
        const auto parsed = parseJsonPath(p.path);
        if (!parsed || parsed->size() < 2 || (*parsed)[0].name != u"providers"_s ||
            (*parsed)[1].name != provider)
            continue;
        JsonPath rest = parsed->mid(2);
        if (keyIndex >= 0) {
            if (rest.size() < 2 || rest[0].name != u"keys"_s || rest[1].index != keyIndex)
                continue;
            rest = rest.mid(2);
        }
        out.append({columnOf(rest), p.message});
    }
    return out;
}

QString modelsText(const QStringList &models)
{
    if (models.isEmpty())
        return QObject::tr("none");
    QStringList shown;
    for (const QString &m : models)
        shown << (m == u"*"_s ? QObject::tr("every model (*)") : m);
    return shown.join(u", "_s);
}

QStringList parseModels(const QString &text)
{
    QStringList out;
    for (const QString &part : text.split(u',')) {
        const QString m = part.trimmed();
        if (!m.isEmpty() && !out.contains(m))
            out << m;
    }
    if (out.isEmpty())
        out << u"*"_s;
    return out;
}

FormTableModel::FormTableModel(int columnCount, int nameColumn, QObject *parent)
    : QAbstractTableModel(parent), m_columnCount(columnCount), m_nameColumn(nameColumn)
{}

int FormTableModel::columnCount(const QModelIndex &parent) const
{
    return parent.isValid() ? 0 : m_columnCount;
}

QVariant FormTableModel::headerData(int section, Qt::Orientation orientation, int role) const
{
    if (orientation != Qt::Horizontal || role != Qt::DisplayRole)
        return QAbstractTableModel::headerData(section, orientation, role);
    const QStringList titles = columnTitles();
    return section >= 0 && section < titles.size() ? QVariant(titles[section]) : QVariant();
}

void FormTableModel::setRows(bool sameRows, std::vector<RowProblems> problems,
                             const std::function<void()> &assign)
{
    if (sameRows) {
        assign();
        m_problems = std::move(problems);
        if (rowCount() > 0)
            emit dataChanged(index(0, 0), index(rowCount() - 1, m_columnCount - 1));
        return;
    }
    beginResetModel();
    assign();
    m_problems = std::move(problems);
    endResetModel();
}

QVariant FormTableModel::problemData(const QModelIndex &index, int role) const
{
    const RowProblems &problems = m_problems[size_t(index.row())];
    switch (role) {
    case Qt::BackgroundRole:
        if (!messagesIn(problems, index.column(), false).isEmpty())
            return ProblemBackground;
        return {};
    case Qt::DecorationRole:
        if (index.column() == m_nameColumn && !problems.isEmpty())
            return QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
        return {};
    default:
        return {};
    }
}

QVariant FormTableModel::toolTip(const QModelIndex &index, const QStringList &notes) const
{
    QStringList lines =
        messagesIn(m_problems[size_t(index.row())], index.column(), index.column() == m_nameColumn);
    lines << notes;
    return lines.isEmpty() ? QVariant() : QVariant(lines.join(u'\n'));
}

bool FormTableModel::requestEdits(const QList<JsonEdit> &edits)
{
    if (edits.isEmpty())
        return false;
    emit editRequested(edits);
    return true;
}

} // namespace switchyard::ui
