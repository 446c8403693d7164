// Admin keys of remote gateways where no secret store runs (no D-Bus session: a CI machine, a bare
// server): the store says so with a reason, keeps the key for this session only, answers every call by
// signal (never inside the call), and writes the key nowhere on disk.
#include "connect/credentialstore.h"

#include <QDirIterator>
#include <QSignalSpy>
#include <QStandardPaths>
#include <QTest>

using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {
const QString Key = u"sk-admin-3f9a-test-only"_s;
}

class TestCredentialStore final : public QObject
{
    Q_OBJECT

private slots:
    void initTestCase()
    {
        QStandardPaths::setTestModeEnabled(true);
        // No session bus, whatever the machine running the test has: a socket that does not exist.
        qputenv("DBUS_SESSION_BUS_ADDRESS", "unix:path=/nonexistent/switchyard-test-bus");
        qRegisterMetaType<CredentialStore::Availability>();
    }

    void probeSaysThereIsNoSecretStore()
    {
        CredentialStore store(u"switchyard-test"_s);
        QCOMPARE(store.availability(), CredentialStore::Availability::Unknown);
        QSignalSpy changed(&store, &CredentialStore::availabilityChanged);
        store.probe();
        QCOMPARE(changed.size(), 0); // asynchronous
        QVERIFY(changed.wait(CredentialStore::JobTimeoutMs + 5000));
        QCOMPARE(store.availability(), CredentialStore::Availability::Unavailable);
        QCOMPARE(changed.first().at(0).value<CredentialStore::Availability>(), CredentialStore::Availability::Unavailable);
        const QString reason = store.unavailableReason();
        QVERIFY2(reason.contains(u"No secret store"_s), qPrintable(reason));
        QVERIFY2(reason.contains(u"this session only"_s), qPrintable(reason));
        QCOMPARE(changed.first().at(1).toString(), reason);
    }

    void keyIsKeptForTheSession()
    {
        CredentialStore store(u"switchyard-test"_s);
        QSignalSpy stored(&store, &CredentialStore::keyStored);
        QSignalSpy loaded(&store, &CredentialStore::keyLoaded);
        QSignalSpy availability(&store, &CredentialStore::availabilityChanged);

        // Storing without a probe first finds out by itself.
        store.store(u"gw1.lan:8080"_s, Key);
        QCOMPARE(stored.size(), 0);
        QVERIFY(stored.wait(CredentialStore::JobTimeoutMs + 5000));
        QCOMPARE(stored.first().at(0).toString(), u"http://gw1.lan:8080"_s);
        QCOMPARE(stored.first().at(1).toBool(), false);
        QVERIFY(stored.first().at(2).toString().contains(u"this session only"_s));
        QCOMPARE(availability.size(), 1);

        // Any spelling of the same gateway finds it; the answer comes by signal.
        store.load(u"HTTP://GW1.lan:8080/"_s);
        QCOMPARE(loaded.size(), 0);
        QVERIFY(loaded.wait());
        QCOMPARE(loaded.first().at(0).toString(), u"http://gw1.lan:8080"_s);
        QCOMPARE(loaded.first().at(1).toString(), Key);
        QCOMPARE(loaded.first().at(2).toBool(), true);

        // Another gateway has none.
        store.load(u"http://gw2.lan:8080"_s);
        QVERIFY(loaded.wait());
        QCOMPARE(loaded.last().at(2).toBool(), false);
        QVERIFY(loaded.last().at(1).toString().isEmpty());

        // A key not asked to be remembered is kept for the session too.
        store.keepForSession(u"http://gw2.lan:8080"_s, u"other"_s);
        store.load(u"gw2.lan:8080"_s);
        QVERIFY(loaded.wait());
        QCOMPARE(loaded.last().at(1).toString(), u"other"_s);

        // Forgotten: gone.
        QSignalSpy forgotten(&store, &CredentialStore::keyForgotten);
        store.forget(u"http://gw1.lan:8080"_s);
        QVERIFY(forgotten.wait());
        store.load(u"http://gw1.lan:8080"_s);
        QVERIFY(loaded.wait());
        QCOMPARE(loaded.last().at(2).toBool(), false);
    }

    void nextSessionHasNoKeyAndNoFileHoldsIt()
    {
        {
            CredentialStore store(u"switchyard-test"_s);
            QSignalSpy stored(&store, &CredentialStore::keyStored);
            store.store(u"http://gw3.lan:8080"_s, Key);
            QVERIFY(stored.wait(CredentialStore::JobTimeoutMs + 5000));
        }
        CredentialStore next(u"switchyard-test"_s);
        QSignalSpy loaded(&next, &CredentialStore::keyLoaded);
        next.load(u"http://gw3.lan:8080"_s);
        QVERIFY(loaded.wait(CredentialStore::JobTimeoutMs + 5000));
        QCOMPARE(loaded.first().at(2).toBool(), false);

        // Not QtKeychain's plain-text fallback, not the panel's settings: nothing under the config and
        // data folders holds the key.
        for (auto location : {QStandardPaths::GenericConfigLocation, QStandardPaths::AppConfigLocation,
                              QStandardPaths::AppDataLocation}) {
            QDirIterator it(QStandardPaths::writableLocation(location), QDir::Files, QDirIterator::Subdirectories);
            while (it.hasNext()) {
                QFile f(it.next());
                QVERIFY(f.open(QIODevice::ReadOnly));
                QVERIFY2(!f.readAll().contains(Key.toUtf8()), qPrintable(f.fileName()));
            }
        }
    }
};

QTEST_GUILESS_MAIN(TestCredentialStore)
#include "tst_credentialstore.moc"
