#include "jsonhighlighter.h"

#include <QColor>
#include <QFont>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

JsonHighlighter::JsonHighlighter(QTextDocument *document) : QSyntaxHighlighter(document)
{
    // Readable on the light palette the panel uses; names stand out from values.
    m_key.setForeground(QColor(0x1f, 0x4e, 0x9c));
    m_key.setFontWeight(QFont::DemiBold);
    m_string.setForeground(QColor(0x1a, 0x7f, 0x37));
    m_number.setForeground(QColor(0xa3, 0x4a, 0x00));
    m_literal.setForeground(QColor(0x8a, 0x2b, 0xb0));
    m_punctuation.setForeground(QColor(0x6a, 0x73, 0x7d));
}

QTextCharFormat JsonHighlighter::format(Token token) const
{
    switch (token) {
    case Token::Key:
        return m_key;
    case Token::String:
        return m_string;
    case Token::Number:
        return m_number;
    case Token::Literal:
        return m_literal;
    case Token::Punctuation:
        return m_punctuation;
    }
    return {};
}

void JsonHighlighter::highlightBlock(const QString &text)
{
    const qsizetype n = text.size();
    qsizetype i = 0;
    auto isWordChar = [](QChar c) { return c.isLetterOrNumber() || c == u'_'; };
    while (i < n) {
        const QChar c = text[i];
        if (c == u'"') {
            qsizetype j = i + 1;
            while (j < n && text[j] != u'"')
                j += text[j] == u'\\' ? 2 : 1;
            j = std::min(j + 1, n);
            // A string followed by ':' is a member name.
            qsizetype k = j;
            while (k < n && text[k].isSpace())
                ++k;
            setFormat(int(i), int(j - i), k < n && text[k] == u':' ? m_key : m_string);
            i = j;
        } else if (c == u'-' || c.isDigit()) {
            qsizetype j = i + 1;
            while (j < n && (text[j].isDigit() || text[j] == u'.' || text[j] == u'e' || text[j] == u'E' ||
                             text[j] == u'+' || text[j] == u'-'))
                ++j;
            setFormat(int(i), int(j - i), m_number);
            i = j;
        } else if (c.isLetter()) {
            qsizetype j = i;
            while (j < n && isWordChar(text[j]))
                ++j;
            const QStringView word = QStringView(text).sliced(i, j - i);
            if (word == u"true" || word == u"false" || word == u"null")
                setFormat(int(i), int(j - i), m_literal);
            i = j;
        } else {
            if (c == u'{' || c == u'}' || c == u'[' || c == u']' || c == u':' || c == u',')
                setFormat(int(i), 1, m_punctuation);
            ++i;
        }
    }
}

} // namespace switchyard::ui
