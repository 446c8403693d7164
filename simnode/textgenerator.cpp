#include "textgenerator.h"

#include <cmath>
#include <algorithm>

namespace switchyard::sim {

namespace {

// Small phrase lists: sentences about the project's own subject read better in a demo than lorem ipsum.
constexpr const char *Openers[] = {
    "", "", "", "In practice,", "As a rule,", "For this reason,", "On a busy node,", "Meanwhile,",
    "In short,", "With two machines,", "Under load,",
};
constexpr const char *Subjects[] = {
    "the gateway", "each node", "the scheduler", "a single request", "the operator", "the batch",
    "every stream", "the second machine", "the load balancer", "the KV cache", "the health check",
    "the benchmark", "a retry", "the control panel", "the model server",
};
constexpr const char *Verbs[] = {
    "keeps", "balances", "measures", "streams", "routes", "shares", "reports", "spreads",
    "protects", "watches", "doubles", "shortens", "stabilises", "schedules",
};
constexpr const char *Objects[] = {
    "the tokens across both machines", "the latency below one second", "every request to a healthy node",
    "the throughput of the cluster", "a steady rate of tokens", "the queue short",
    "the failures away from users", "the first token quickly", "each connection open", "the work evenly",
    "the answer word by word", "the memory of the GPU", "the traffic of many clients",
};
constexpr const char *Tails[] = {
    "", "", "", "while the other node rests", "when the load rises", "without a single point of failure",
    "as long as the network holds", "under heavy traffic", "before the timeout expires",
    "so nobody waits too long", "at about fifteen tokens per second",
};
constexpr const char *ReasoningLeads[] = {
    "Let me consider whether", "I need to check if", "The question is whether", "Perhaps",
    "It seems that", "I should explain how", "First, recall that", "So",
};

template <std::size_t N>
const char *pick(Rng &rng, const char *const (&list)[N])
{
    return list[rng.below(int(N))];
}

void appendWords(QList<QByteArray> &out, const char *phrase)
{
    const QByteArray p(phrase);
    for (const QByteArray &w : p.split(' ')) {
        if (!w.isEmpty())
            out.append(w);
    }
}

} // namespace

quint64 Rng::next()
{
    quint64 z = (m_state += 0x9e3779b97f4a7c15ULL);
    z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
    z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
    return z ^ (z >> 31);
}

quint64 fnv1a64(QByteArrayView data, quint64 hash)
{
    for (char c : data) {
        hash ^= quint64(static_cast<unsigned char>(c));
        hash *= 0x100000001b3ULL;
    }
    return hash;
}

TextGenerator::TextGenerator(quint64 seed, Style style) : m_rng(seed), m_style(style) {}

void TextGenerator::refill()
{
    m_words.clear();
    m_pos = 0;
    if (m_style == Style::Reasoning) {
        appendWords(m_words, pick(m_rng, ReasoningLeads));
    } else {
        appendWords(m_words, pick(m_rng, Openers));
    }
    appendWords(m_words, pick(m_rng, Subjects));
    appendWords(m_words, pick(m_rng, Verbs));
    appendWords(m_words, pick(m_rng, Objects));
    if (m_style == Style::Answer)
        appendWords(m_words, pick(m_rng, Tails));
    QByteArray &first = m_words.first();
    if (first[0] >= 'a' && first[0] <= 'z')
        first[0] = char(first[0] - 'a' + 'A');
    m_words.last().append('.');
}

QByteArray TextGenerator::next()
{
    if (m_pos >= m_words.size())
        refill();
    const QByteArray &word = m_words[m_pos++];
    if (m_first) {
        m_first = false;
        return word;
    }
    QByteArray token;
    token.reserve(word.size() + 1);
    token.append(' ').append(word);
    return token;
}

int TextGenerator::tokensToSentenceEnd(int atLeast) const
{
    TextGenerator ahead = *this;
    int n = 0;
    // Sentences are short (under 25 words), so the bound only guards against a broken phrase list.
    while (n < atLeast + 64) {
        ++n;
        if (ahead.next().endsWith('.') && n >= atLeast)
            break;
    }
    return n;
}

std::vector<float> embeddingVector(quint64 seed, int dimensions)
{
    Rng rng(seed);
    std::vector<float> v(std::size_t(std::max(dimensions, 1)));
    double norm = 0;
    for (float &x : v) {
        x = float(rng.unit() * 2.0 - 1.0);
        norm += double(x) * double(x);
    }
    norm = std::sqrt(norm);
    if (norm > 0) {
        for (float &x : v)
            x = float(double(x) / norm);
    }
    return v;
}

} // namespace switchyard::sim
