#include "placeholderview.h"

#include <QLabel>
#include <QHBoxLayout>
#include <QVBoxLayout>

namespace switchyard::ui {

PlaceholderView::PlaceholderView(const QString &title, const QString &text, QWidget *parent) : QWidget(parent)
{
    auto *layout = new QVBoxLayout(this);
    layout->addStretch(1);
    auto *heading = new QLabel(title, this);
    QFont f = heading->font();
    f.setPointSizeF(f.pointSizeF() * 1.4);
    f.setBold(true);
    heading->setFont(f);
    heading->setAlignment(Qt::AlignCenter);
    // Word-wrapped labels get the width of their row: centre them with stretches, not alignment
    // (an aligned word-wrapped label shrinks to a few words per line).
    auto centred = [layout](QLabel *label, int maxWidth) {
        label->setWordWrap(true);
        label->setAlignment(Qt::AlignCenter);
        label->setMaximumWidth(maxWidth);
        label->setTextInteractionFlags(Qt::TextSelectableByMouse);
        auto *row = new QHBoxLayout();
        row->addStretch(1);
        row->addWidget(label, 6);
        row->addStretch(1);
        layout->addLayout(row);
    };
    auto *body = new QLabel(text, this);
    layout->addWidget(heading);
    layout->addSpacing(8);
    centred(body, 680);
    m_detail = new QLabel(this);
    m_detail->setTextFormat(Qt::PlainText);
    layout->addSpacing(12);
    centred(m_detail, 900);
    m_detail->hide();
    layout->addStretch(2);
}

void PlaceholderView::setDetail(const QString &text)
{
    if (m_detail->text() != text)
        m_detail->setText(text);
    m_detail->setVisible(!text.isEmpty());
}

QString PlaceholderView::detail() const
{
    return m_detail->text();
}

} // namespace switchyard::ui
