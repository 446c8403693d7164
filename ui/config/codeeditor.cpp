#include "codeeditor.h"

#include <QFontDatabase>
#include <QHelpEvent>
#include <QPainter>
#include <QTextBlock>
#include <QToolTip>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

class CodeEditor::Gutter final : public QWidget
{
public:
    explicit Gutter(CodeEditor *editor) : QWidget(editor), m_editor(editor) {}
    QSize sizeHint() const override { return {m_editor->gutterWidth(), 0}; }

protected:
    void paintEvent(QPaintEvent *event) override { m_editor->paintGutter(event); }

private:
    CodeEditor *m_editor;
};

CodeEditor::CodeEditor(QWidget *parent) : QPlainTextEdit(parent), m_gutter(new Gutter(this))
{
    setObjectName(u"configText"_s);
    QFont mono = QFontDatabase::systemFont(QFontDatabase::FixedFont);
    setFont(mono);
    setLineWrapMode(QPlainTextEdit::NoWrap);
    setTabChangesFocus(false);
    setTabStopDistance(fontMetrics().horizontalAdvance(u' ') * 2);
    connect(this, &QPlainTextEdit::blockCountChanged, this, &CodeEditor::updateGutterWidth);
    connect(this, &QPlainTextEdit::updateRequest, this, &CodeEditor::updateGutter);
    connect(this, &QPlainTextEdit::cursorPositionChanged, this, &CodeEditor::updateSelections);
    updateGutterWidth();
    updateSelections();
}

QWidget *CodeEditor::gutter() const
{
    return m_gutter;
}

int CodeEditor::gutterWidth() const
{
    int digits = 1;
    for (int max = std::max(1, blockCount()); max >= 10; max /= 10)
        ++digits;
    digits = std::max(digits, 3);
    return 12 + fontMetrics().horizontalAdvance(u'9') * digits;
}

void CodeEditor::updateGutterWidth()
{
    setViewportMargins(gutterWidth(), 0, 0, 0);
}

void CodeEditor::updateGutter(const QRect &rect, int dy)
{
    if (dy)
        m_gutter->scroll(0, dy);
    else
        m_gutter->update(0, rect.y(), m_gutter->width(), rect.height());
    if (rect.contains(viewport()->rect()))
        updateGutterWidth();
}

void CodeEditor::resizeEvent(QResizeEvent *event)
{
    QPlainTextEdit::resizeEvent(event);
    const QRect r = contentsRect();
    m_gutter->setGeometry(QRect(r.left(), r.top(), gutterWidth(), r.height()));
}

QList<int> CodeEditor::markedLines() const
{
    QList<int> lines;
    for (const Mark &m : m_markers) {
        const int line = document()->findBlock(m.cursor.selectionStart()).blockNumber() + 1;
        if (!lines.contains(line))
            lines << line;
    }
    std::sort(lines.begin(), lines.end());
    return lines;
}

void CodeEditor::paintGutter(QPaintEvent *event)
{
    QPainter p(m_gutter);
    const QPalette pal = palette();
    p.fillRect(event->rect(), pal.color(QPalette::Window));
    const QList<int> marked = markedLines();
    const int currentLine = textCursor().blockNumber() + 1;
    QTextBlock block = firstVisibleBlock();
    int top = qRound(blockBoundingGeometry(block).translated(contentOffset()).top());
    int bottom = top + qRound(blockBoundingRect(block).height());
    const int w = m_gutter->width() - 6;
    while (block.isValid() && top <= event->rect().bottom()) {
        if (block.isVisible() && bottom >= event->rect().top()) {
            const int line = block.blockNumber() + 1;
            const bool problem = marked.contains(line);
            if (problem) {
                p.fillRect(QRect(0, top, m_gutter->width(), bottom - top), QColor(0xfd, 0xec, 0xea));
                p.setPen(QColor(0xc6, 0x28, 0x28));
            } else {
                p.setPen(line == currentLine ? pal.color(QPalette::WindowText)
                                             : pal.color(QPalette::PlaceholderText));
            }
            QFont f = font();
            f.setBold(problem || line == currentLine);
            p.setFont(f);
            p.drawText(0, top, w, fontMetrics().height(), Qt::AlignRight, QString::number(line));
        }
        block = block.next();
        top = bottom;
        bottom = top + qRound(blockBoundingRect(block).height());
    }
}

void CodeEditor::setMarkers(const QList<Marker> &markers)
{
    m_markers.clear();
    const int last = std::max(0, document()->characterCount() - 1);
    for (const Marker &m : markers) {
        int start = std::clamp(m.start, 0, last);
        int end = std::clamp(m.end, start, last);
        if (end == start) { // one character, so there is something to underline
            if (start < last)
                end = start + 1;
            else if (start > 0)
                start -= 1;
        }
        QTextCursor c(document());
        c.setPosition(start);
        c.setPosition(end, QTextCursor::KeepAnchor);
        m_markers.append(Mark{c, m.message});
    }
    updateSelections();
    m_gutter->update();
}

void CodeEditor::updateSelections()
{
    QList<QTextEdit::ExtraSelection> selections;
    QTextEdit::ExtraSelection line;
    line.format.setBackground(QColor(0xf3, 0xf6, 0xfa));
    line.format.setProperty(QTextFormat::FullWidthSelection, true);
    line.cursor = textCursor();
    line.cursor.clearSelection();
    selections << line;
    for (const Mark &m : m_markers) {
        QTextEdit::ExtraSelection s;
        s.cursor = m.cursor;
        s.format.setUnderlineStyle(QTextCharFormat::WaveUnderline);
        s.format.setUnderlineColor(QColor(0xd3, 0x2f, 0x2f));
        s.format.setBackground(QColor(0xfd, 0xec, 0xea));
        selections << s;
    }
    setExtraSelections(selections);
    m_gutter->update();
}

void CodeEditor::goTo(int start, int end)
{
    const int last = std::max(0, document()->characterCount() - 1);
    QTextCursor c(document());
    c.setPosition(std::clamp(start, 0, last));
    if (end > start)
        c.setPosition(std::clamp(end, 0, last), QTextCursor::KeepAnchor);
    setTextCursor(c);
    centerCursor();
    setFocus(Qt::OtherFocusReason);
}

bool CodeEditor::viewportEvent(QEvent *event)
{
    if (event->type() == QEvent::ToolTip) {
        const auto *help = static_cast<QHelpEvent *>(event);
        const int pos = cursorForPosition(help->pos()).position();
        QStringList messages;
        for (const Mark &m : m_markers) {
            if (pos >= m.cursor.selectionStart() && pos <= m.cursor.selectionEnd())
                messages << m.message;
        }
        if (messages.isEmpty())
            QToolTip::hideText();
        else
            QToolTip::showText(help->globalPos(), messages.join(u'\n'), this);
        return true;
    }
    return QPlainTextEdit::viewportEvent(event);
}

} // namespace switchyard::ui
