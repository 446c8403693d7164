// A writer batch's requests packed into one block (history/requestblock): every field of every record
// comes back as it went in, whatever its text; a block lists each key, node and model it holds, so a
// search that skips blocks by those lists never skips a match; records are split into blocks by the
// minute they started in and by size; and damaged bytes are refused with a message, never read past.

#include "history/requestblock.h"
#include "recordcompare.h"

#include <QRandomGenerator>
#include <QTest>
#include <string>
#include <vector>

using namespace Qt::StringLiterals;
using namespace switchyard;
using history::RequestBlockEncoder;
using stats::Attempt;
using stats::RequestRecord;
using testing::compareRecords;

namespace {

// 2026-01-05 10:00:00 UTC, a minute boundary.
constexpr qint64 T0 = 1'767'607'200'000;

RequestRecord makeRecord(qint64 startedMs, const QString &model, const QString &node, const QString &keyId = {})
{
    RequestRecord r;
    r.startedMsSinceEpoch = startedMs;
    r.method = "POST";
    r.path = "/v1/chat/completions";
    r.model = model;
    r.node = node;
    r.route = u"weighted"_s;
    r.status = 200;
    r.attempts = 1;
    r.ttftMs = 12;
    r.durationMs = 340;
    r.promptTokens = 21;
    r.completionTokens = 7;
    r.keyId = keyId;
    r.tried.append(Attempt{node, 200, Attempt::Outcome::Answered, Attempt::Via::Candidate, {}, 0, 340, {}});
    return r;
}

std::string encode(const std::vector<RequestRecord> &records, RequestBlockEncoder &encoder)
{
    encoder.clear();
    for (const RequestRecord &r : records)
        encoder.add(r);
    return std::string(encoder.finish());
}

} // namespace

class TestRequestBlock final : public QObject
{
    Q_OBJECT

private slots:
    void everyFieldComesBack()
    {
        std::vector<RequestRecord> in;
        in.push_back(makeRecord(T0, u"llama-3.1-8b"_s, u"spark-a"_s, u"vk_aaaaaaaaaaaaaaaa"_s));
        // Every kind of text: accents, CJK, emoji, a Latin-1 byte in the path, empty and null texts.
        RequestRecord odd = makeRecord(T0 + 5, u"modèle-日本語-🚀"_s, u"nœud"_s);
        odd.method = "DELETE";
        odd.path = "/v1/files/caf\xe9";
        odd.route = QString();
        odd.error = u"HTTP 502: upstream said \"no\"\n"_s;
        odd.status = 502;
        odd.stream = true;
        odd.ttftMs = -1;
        odd.promptTokens = -1;
        odd.completionTokens = -1;
        odd.attempts = 40; // more than are listed
        odd.tried.clear();
        for (int i = 0; i < RequestRecord::MaxAttemptsListed; ++i) {
            odd.tried.append(Attempt{i % 2 ? u"spark-a"_s : u"nœud"_s, 500 + i, Attempt::Outcome(i % 8),
                                     Attempt::Via(i % 3), i % 4 ? QString() : u"fallback-ü"_s, qint64(i) * 1000,
                                     qint64(i) * 7, u"reason %1"_s.arg(i)});
        }
        in.push_back(odd);
        // Starts out of order and before 1970 (a clock set wrong): differences are signed.
        in.push_back(makeRecord(T0 - 3 * 86'400'000, u"llama-3.1-8b"_s, u"spark-b"_s));
        in.push_back(makeRecord(-5000, u""_s, u""_s));
        RequestRecord answeredLocally = makeRecord(T0 + 9, u"llama-3.1-8b"_s, QString());
        answeredLocally.tried.clear();
        answeredLocally.status = 429;
        in.push_back(answeredLocally);

        RequestBlockEncoder encoder;
        const std::string block = encode(in, encoder);
        QCOMPARE(encoder.size(), qsizetype(in.size()));
        const auto out = history::decodeRequestBlock(QByteArrayView(block.data(), qsizetype(block.size())));
        QVERIFY2(out, qPrintable(out ? QString() : out.error()));
        QCOMPARE(out->size(), in.size());
        for (size_t i = 0; i < in.size(); ++i)
            compareRecords((*out)[i], in[i]);
    }

    void aRepeatedTextIsStoredOnce()
    {
        // A thousand requests of one model, node and key: the block holds each text once, so it costs a
        // few dozen bytes per request rather than the texts' length each time.
        std::vector<RequestRecord> in;
        const QString model = u"a-model-with-a-rather-long-name-as-hugging-face-names-are"_s;
        for (int i = 0; i < 1000; ++i)
            in.push_back(makeRecord(T0 + i, QString(model), u"spark-a"_s, u"vk_aaaaaaaaaaaaaaaa"_s));
        RequestBlockEncoder encoder;
        const std::string block = encode(in, encoder);
        QVERIFY2(block.size() < 40 * in.size(), qPrintable(QString::number(block.size())));
        const auto out = history::decodeRequestBlock(QByteArrayView(block.data(), qsizetype(block.size())));
        QVERIFY(out);
        QCOMPARE(out->back().model, model);
    }

    void theListsNameEveryKeyNodeAndModel()
    {
        std::vector<RequestRecord> in;
        in.push_back(makeRecord(T0, u"m1"_s, u"gpu-a"_s, u"vk_1111111111111111"_s));
        // A node named like a model: in both lists, or a search by model would skip this block.
        in.push_back(makeRecord(T0 + 1, u"gpu-a"_s, u"m1"_s, u"vk_2222222222222222"_s));
        in.back().tried.append(
            Attempt{u"gpu-b"_s, 0, Attempt::Outcome::ConnectionError, Attempt::Via::Candidate, u"m2"_s, 0, 1, {}});
        RequestBlockEncoder encoder;
        encode(in, encoder);
        const auto listed = [](const std::string &list, const QString &text) {
            return list.find(history::listedNeedle(text)) != std::string::npos;
        };
        for (const QString &k : {u"vk_1111111111111111"_s, u"vk_2222222222222222"_s})
            QVERIFY(listed(encoder.keyIds(), k));
        for (const QString &n : {u"gpu-a"_s, u"m1"_s, u"gpu-b"_s})
            QVERIFY2(listed(encoder.nodes(), n), qPrintable(n));
        for (const QString &m : {u"m1"_s, u"gpu-a"_s, u"m2"_s})
            QVERIFY2(listed(encoder.models(), m), qPrintable(m));
        // A needle never matches part of another entry.
        QVERIFY(!listed(encoder.nodes(), u"gpu"_s));
        QVERIFY(!listed(encoder.keyIds(), u"vk_1111"_s));
    }

    void blocksSplitByMinuteAndSize()
    {
        std::vector<RequestRecord> records;
        for (int i = 0; i < 300; ++i) // 100 ms apart: 30 s, within the minute T0 starts
            records.push_back(makeRecord(T0 + i * 100, u"m"_s, u"gpu-a"_s));
        for (int i = 0; i < 10; ++i) // the next minute
            records.push_back(makeRecord(T0 + 60'000 + i, u"m"_s, u"gpu-a"_s));
        // Then one minute of long, distinct error texts: more than one block's bytes.
        for (int i = 0; i < 400; ++i) {
            RequestRecord r = makeRecord(T0 + 120'000 + i, u"m"_s, u"gpu-a"_s);
            r.error = QString(400, u'x') + QString::number(i);
            records.push_back(r);
        }
        std::vector<const RequestRecord *> byStart;
        for (const auto &r : records)
            byStart.push_back(&r);
        RequestBlockEncoder encoder;
        struct Block
        {
            qint64 first, last;
            qsizetype count;
            size_t bytes;
        };
        std::vector<Block> blocks;
        QVERIFY(history::packRequestBlocks(byStart, encoder, [&](qint64 first, qint64 last) {
            blocks.push_back({first, last, encoder.size(), encoder.finish().size()});
            return true;
        }));
        QVERIFY(blocks.size() >= 4);
        QCOMPARE(blocks[0].first, T0);
        QCOMPARE(blocks[0].last, T0 + 299 * 100);
        QCOMPARE(blocks[0].count, 300);
        QCOMPARE(blocks[1].first, T0 + 60'000);
        QCOMPARE(blocks[1].count, 10);
        qsizetype total = 0;
        for (const Block &b : blocks) {
            total += b.count;
            QCOMPARE(b.first - b.first % 60'000, b.last - b.last % 60'000); // one minute each
            QVERIFY2(b.bytes < history::MaxBlockBytes + 1024, qPrintable(QString::number(b.bytes)));
        }
        QCOMPARE(total, qsizetype(records.size()));
        // A store that fails stops the packing at once.
        int calls = 0;
        QVERIFY(!history::packRequestBlocks(byStart, encoder, [&](qint64, qint64) { return ++calls < 2; }));
        QCOMPARE(calls, 2);
    }

    void damagedBytesAreRefusedNotReadPast()
    {
        std::vector<RequestRecord> in;
        for (int i = 0; i < 20; ++i)
            in.push_back(makeRecord(T0 + i, u"m%1"_s.arg(i % 3), u"gpu-%1"_s.arg(i % 2)));
        RequestBlockEncoder encoder;
        const std::string block = encode(in, encoder);
        // Every shorter prefix is refused (a torn write, a truncated copy).
        for (size_t n = 0; n < block.size(); ++n) {
            const auto out = history::decodeRequestBlock(QByteArrayView(block.data(), qsizetype(n)));
            QVERIFY2(!out, qPrintable(u"a prefix of %1 bytes was accepted"_s.arg(n)));
            QVERIFY(!out.error().isEmpty());
        }
        // Trailing bytes are damage too.
        const std::string longer = block + "x";
        QVERIFY(!history::decodeRequestBlock(QByteArrayView(longer.data(), qsizetype(longer.size()))));
        // An unknown version is named as such.
        std::string newer = block;
        newer[0] = char(9);
        const auto v = history::decodeRequestBlock(QByteArrayView(newer.data(), qsizetype(newer.size())));
        QVERIFY(!v);
        QVERIFY(v.error().contains(u"unknown format"_s));
        // Flipped bytes: refused or read as some records, never a crash or a read past the end (ASan).
        QRandomGenerator rng(20261207);
        for (int round = 0; round < 2000; ++round) {
            std::string bad = block;
            for (int flips = 1 + int(rng.bounded(3)); flips > 0; --flips)
                bad[size_t(rng.bounded(quint32(bad.size())))] = char(rng.bounded(256));
            const auto out = history::decodeRequestBlock(QByteArrayView(bad.data(), qsizetype(bad.size())));
            if (out)
                QVERIFY(out->size() <= bad.size());
        }
    }
};

QTEST_GUILESS_MAIN(TestRequestBlock)
#include "tst_requestblock.moc"
