#pragma once

// The config editor's text view: a QPlainTextEdit with a line-number gutter, the current line tinted, and
// problems marked where they are (a wavy underline, the line number in red, the message as a tooltip).
// Markers are text cursors, so they move with the text while the next validation is pending.

#include <QList>
#include <QPlainTextEdit>
#include <QTextCursor>

namespace switchyard::ui {

class CodeEditor final : public QPlainTextEdit
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(CodeEditor)

public:
    explicit CodeEditor(QWidget *parent = nullptr);

    struct Marker
    {
        int start = 0; // [start, end) in the document; an empty range marks the character at start
        int end = 0;
        QString message;
    };
    void setMarkers(const QList<Marker> &markers);
    int markerCount() const { return int(m_markers.size()); }
    // Lines (1-based) that carry a marker, for the gutter (and tests).
    QList<int> markedLines() const;

    // Selects [start, end) (or puts the cursor at start), scrolls it into view and takes the focus.
    void goTo(int start, int end);

    int gutterWidth() const;
    QWidget *gutter() const;

protected:
    void resizeEvent(QResizeEvent *event) override;
    bool viewportEvent(QEvent *event) override;

private:
    class Gutter;
    friend class Gutter;
    void paintGutter(QPaintEvent *event);
    void updateGutterWidth();
    void updateGutter(const QRect &rect, int dy);
    void updateSelections();

    struct Mark
    {
        QTextCursor cursor;
        QString message;
    };
    Gutter *m_gutter;
    QList<Mark> m_markers;
};

} // namespace switchyard::ui
