#pragma once

// Readable, cheap text for the simulated node. A "token" is one word with its leading space, so
// completion_tokens equals the number of words streamed. Everything is driven by a small portable PRNG
// (not std:: distributions, whose output differs between standard libraries), so a seed gives the
// same text on every machine.

#include <QByteArray>
#include <QByteArrayView>
#include <QList>
#include <QtGlobal>

#include <vector>

namespace switchyard::sim {

// splitmix64: tiny, fast, and good enough for text and jitter.
class Rng final
{
public:
    explicit Rng(quint64 seed) : m_state(seed) {}
    quint64 next();
    // Uniform in [0, n); n > 0.
    int below(int n) { return int(next() % quint64(n)); }
    // Uniform in [0, 1).
    double unit() { return double(next() >> 11) * 0x1.0p-53; }

private:
    quint64 m_state;
};

// FNV-1a, 64 bit: a stable hash for seeding from request content.
quint64 fnv1a64(QByteArrayView data, quint64 hash = 0xcbf29ce484222325ULL);

class TextGenerator final
{
public:
    enum class Style { Answer, Reasoning };

    TextGenerator(quint64 seed, Style style);

    // The next token: a word (punctuation attached), with a leading space except for the very first.
    QByteArray next();
    // How many tokens from here to the first sentence end at least atLeast tokens away: a natural stop
    // lands there, so answers end with a full sentence. Works on a copy; this generator is unchanged.
    int tokensToSentenceEnd(int atLeast) const;

private:
    void refill();

    Rng m_rng;
    Style m_style;
    QList<QByteArray> m_words; // the rest of the current sentence, word by word
    qsizetype m_pos = 0;
    bool m_first = true;
};

// A deterministic unit-length vector for an embedding input.
std::vector<float> embeddingVector(quint64 seed, int dimensions);

} // namespace switchyard::sim
