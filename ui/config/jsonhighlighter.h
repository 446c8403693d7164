#pragma once

// Colours for the config editor's JSON text: member names, strings, numbers, true/false/null and
// punctuation. JSON strings cannot span lines, so every line is coloured on its own (no block state),
// and a change re-colours only the lines it touched.

#include <QSyntaxHighlighter>
#include <QTextCharFormat>

namespace switchyard::ui {

class JsonHighlighter final : public QSyntaxHighlighter
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(JsonHighlighter)

public:
    enum class Token { Key, String, Number, Literal, Punctuation };
    explicit JsonHighlighter(QTextDocument *document);

    QTextCharFormat format(Token token) const;

protected:
    void highlightBlock(const QString &text) override;

private:
    QTextCharFormat m_key;
    QTextCharFormat m_string;
    QTextCharFormat m_number;
    QTextCharFormat m_literal;
    QTextCharFormat m_punctuation;
};

} // namespace switchyard::ui
