#include "problemspane.h"

#include <QApplication>
#include <QLabel>
#include <QListWidget>
#include <QStyle>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
constexpr int ProblemStartRole = Qt::UserRole + 1;
constexpr int ProblemEndRole = Qt::UserRole + 2;
} // namespace

ProblemsPane::ProblemsPane(const QString &listToolTip, QWidget *parent)
    : QWidget(parent), m_header(new QLabel(this)), m_list(new QListWidget(this))
{
    auto *l = new QVBoxLayout(this);
    l->setContentsMargins(0, 4, 0, 0);
    l->setSpacing(2);
    m_header->setObjectName(u"problemsHeader"_s);
    m_list->setObjectName(u"problemList"_s);
    m_list->setAlternatingRowColors(true);
    m_list->setWordWrap(true);
    m_list->setToolTip(listToolTip);
    l->addWidget(m_header);
    l->addWidget(m_list, 1);
    connect(m_list, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { emit problemActivated(m_list->row(item)); });
    connect(m_list, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { emit problemActivated(m_list->row(item)); });
}

void ProblemsPane::setHeader(const QString &text)
{
    m_header->setText(text);
}

void ProblemsPane::showProblems(const QList<LocatedProblem> &problems, const QString &header)
{
    m_list->clear();
    const QIcon icon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const LocatedProblem &p : problems) {
        auto *item = new QListWidgetItem(icon, p.text(), m_list);
        item->setData(ProblemStartRole, p.start);
        item->setData(ProblemEndRole, p.end);
        item->setToolTip(p.problem.toString());
    }
    m_header->setText(header);
    m_header->setStyleSheet(problems.isEmpty() ? u"color: #1a7f37;"_s : u"color: #c62828;"_s);
}

} // namespace switchyard::ui
