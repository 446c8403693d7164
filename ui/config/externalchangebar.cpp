#include "externalchangebar.h"

#include <QHBoxLayout>
#include <QLabel>
#include <QPushButton>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ExternalChangeBar::ExternalChangeBar(const QString &reloadLabel, QWidget *parent)
    : QFrame(parent), m_text(new QLabel(this)), m_reload(new QPushButton(reloadLabel, this)),
      m_keep(new QPushButton(this))
{
    setObjectName(u"externalChangeBar"_s);
    setFrameShape(QFrame::StyledPanel);
    setStyleSheet(u"QFrame#externalChangeBar { background: #fff4de; border: 1px solid #e08e00; "
                  "border-radius: 4px; } QFrame#externalChangeBar QLabel { color: #4a3000; "
                  "background: transparent; }"_s);
    auto *l = new QHBoxLayout(this);
    l->setContentsMargins(10, 4, 4, 4);
    m_text->setWordWrap(true);
    m_reload->setObjectName(u"externalReload"_s);
    m_keep->setObjectName(u"externalKeep"_s);
    l->addWidget(m_text, 1);
    l->addWidget(m_reload);
    l->addWidget(m_keep);
    connect(m_reload, &QPushButton::clicked, this, &ExternalChangeBar::reloadClicked);
    connect(m_keep, &QPushButton::clicked, this, &ExternalChangeBar::keepClicked);
    hide();
}

void ExternalChangeBar::showChange(const QString &text, bool offerReload, const QString &keepLabel)
{
    m_text->setText(text);
    m_reload->setVisible(offerReload);
    m_keep->setVisible(true);
    m_keep->setText(keepLabel);
    show();
}

void ExternalChangeBar::dismiss()
{
    hide();
    m_text->clear();
}

QString ExternalChangeBar::text() const
{
    return isHidden() ? QString() : m_text->text();
}

} // namespace switchyard::ui
