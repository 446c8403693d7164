// The lasting history when the gateway is killed (kill -9, a power cut of the process) mid-traffic: a real
// `switchyard --headless` with switchyard.history in front of a real `switchyard-simnode`, a client sending
// requests one after another, SIGKILL right after an answer. Afterwards the file opens, passes SQLite's
// integrity check, holds no record that was never answered, and has lost only requests that finished in
// the last moments before the kill — what waited in the writer's queue (flushed every 250 ms) or was in
// the batch being written. The numbers of each run are printed (docs/HISTORY.md, "A killed gateway").
#include "common/testhttpclient.h"
#include "common/testprocesses.h"
#include "history/historystore.h"

#include <QElapsedTimer>
#include <QFile>
#include <QProcess>
#include <QSqlDatabase>
#include <QSqlQuery>
#include <QTemporaryDir>
#include <QTest>

#include <memory>
#include <nlohmann/json.hpp>
#include <vector>

using namespace switchyard;
using namespace Qt::Literals::StringLiterals;

namespace {

// The writer's flush interval (HistoryOptions::flushIntervalMs) and a margin for the batch being written
// and the scheduler of a loaded 2-core machine.
constexpr qint64 LossWindowMs = 250 + 500;

} // namespace

class TestHistoryCrash final : public QObject
{
    Q_OBJECT

    QTemporaryDir m_dir;

private slots:
    void aKilledGatewayLosesOnlyItsLastMoments()
    {
        QVERIFY(m_dir.isValid());
        testing::TestProcesses processes(m_dir.path());
        const quint16 node = processes.startSimNode(QStringLiteral(SWITCHYARD_SIMNODE_BIN), u"a"_s);
        QVERIFY2(node != 0, "switchyard-simnode did not start");
        const QString history = m_dir.filePath(u"history.db"_s);
        const nlohmann::json config = {
            {"providers",
             {{"a",
               {{"keys", {{{"name", "a-key"}, {"value", "dummy"}, {"models", {"m1"}}, {"weight", 1}}}},
                {"network_config", {{"base_url", "http://127.0.0.1:" + std::to_string(node)}}},
                {"custom_provider_config", {{"base_provider_type", "openai"}}}}}}},
            {"switchyard", {{"worker_threads", 1}, {"history", {{"path", history.toStdString()}}}}}};
        QFile file(m_dir.filePath(u"config.json"_s));
        QVERIFY(file.open(QIODevice::WriteOnly));
        file.write(QByteArray::fromStdString(config.dump(2)));
        file.close();
        QProcess *gateway = nullptr;
        const quint16 port =
            processes.startHeadless(QStringLiteral(SWITCHYARD_BIN), file.fileName(), 0, &gateway);
        QVERIFY2(port != 0, "switchyard --headless did not start");

        // Traffic for a while (several of the writer's batches), then SIGKILL right after an answer.
        QElapsedTimer clock;
        clock.start();
        std::vector<qint64> answeredAtMs;
        while (clock.elapsed() < 1500) {
            const auto r =
                testing::request(port, "POST", "/v1/chat/completions", testing::chatBody("m1", 2), 10000);
            QCOMPARE(r.status, 200);
            answeredAtMs.push_back(clock.elapsed());
        }
        const qint64 killedAtMs = clock.elapsed();
        gateway->kill();
        QVERIFY(gateway->waitForFinished(10000));
        QCOMPARE(gateway->exitStatus(), QProcess::CrashExit);

        // The file is whole: SQLite's own check, then the store opens it as the next start would.
        qint64 stored = -1;
        {
            QSqlDatabase db = QSqlDatabase::addDatabase(u"QSQLITE"_s, u"crash-check"_s);
            db.setDatabaseName(history);
            QVERIFY(db.open());
            QSqlQuery q(db);
            QVERIFY(q.exec(u"PRAGMA integrity_check"_s) && q.next());
            QCOMPARE(q.value(0).toString(), u"ok"_s);
            QVERIFY(q.exec(u"SELECT coalesce(sum(count), 0) FROM request_blocks"_s) && q.next());
            stored = q.value(0).toLongLong();
            q.finish();
            db.close();
        }
        QSqlDatabase::removeDatabase(u"crash-check"_s);
        auto reopened = history::HistoryStore::open(history);
        QVERIFY2(reopened, qPrintable(reopened ? QString() : reopened.error()));
        history::HistoryQuery all;
        all.limit = 1;
        QVERIFY((*reopened)->search(all));

        const qint64 answered = qint64(answeredAtMs.size());
        const qint64 inLastMoments = std::count_if(answeredAtMs.begin(), answeredAtMs.end(),
                                                   [&](qint64 t) { return t >= killedAtMs - LossWindowMs; });
        const qint64 lost = answered - stored;
        qInfo("kill -9 after %lld answered requests (%.0f/s): %lld on disk, %lld lost; %lld had finished in "
              "the last %lld ms",
              answered, answered * 1000.0 / double(killedAtMs), stored, lost, inLastMoments, LossWindowMs);
        QVERIFY(stored <= answered); // nothing on disk that no client saw answered
        QVERIFY2(lost <= inLastMoments, "lost more than what finished in the writer's last flush interval");
    }
};

QTEST_GUILESS_MAIN(TestHistoryCrash)
#include "tst_historycrash.moc"
