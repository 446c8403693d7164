// The trust decision for a TLS peer (upstream/pinnedcertificate.h): the fingerprint written as openssl
// writes it, a pasted fingerprint read back in its usual spellings, and which handshakes go on.
#include "upstream/pinnedcertificate.h"

#include <QCryptographicHash>
#include <QTest>

using namespace switchyard::upstream;
using namespace Qt::StringLiterals;

namespace {

// A self-signed test certificate (CN=gateway.test, O=Switchyard Tests); its key is not needed here.
constexpr char TestCertificatePem[] = R"(-----BEGIN CERTIFICATE-----
MIIBuzCCAWGgAwIBAgIUQHSvDQIMLcwqu4JYXMRLFNlpHaowCgYIKoZIzj0EAwIw
MjEVMBMGA1UEAwwMZ2F0ZXdheS50ZXN0MRkwFwYDVQQKDBBTd2l0Y2h5YXJkIFRl
c3RzMCAXDTI2MTIwMzE1Mjc0MloYDzIxMjYxMTA5MTUyNzQyWjAyMRUwEwYDVQQD
DAxnYXRld2F5LnRlc3QxGTAXBgNVBAoMEFN3aXRjaHlhcmQgVGVzdHMwWTATBgcq
hkjOPQIBBggqhkjOPQMBBwNCAAQz/h3V0hwb3qNOlkcOnq1L2LlZEb3u8VBHhrpA
Gjqhm4o0J/jGsWbIYXTnJDhoUT//M72r0f0nOs3r2Oi9z1NXo1MwUTAdBgNVHQ4E
FgQUcR74UEX0VsB0Mijx/e1XI3iSzVowHwYDVR0jBBgwFoAUcR74UEX0VsB0Mijx
/e1XI3iSzVowDwYDVR0TAQH/BAUwAwEB/zAKBggqhkjOPQQDAgNIADBFAiEAlZ/8
v+8GmONTdQrZeZXANW/cJBm54m9KdeHLOyIxguwCIGe/P4zHw+nOqxWkwsWlf5LN
Bup9pYWXqLAgXefqsjf+
-----END CERTIFICATE-----
)";

// What `openssl x509 -in cert.pem -noout -fingerprint -sha256` prints for it.
const QString OpensslFingerprint =
    u"CF:D7:24:2E:E7:90:67:07:93:A0:5E:81:94:24:DA:4F:92:23:57:EA:AF:D7:0D:8E:F4:9B:15:77:CC:D9:62:53"_s;

QSslCertificate testCertificate()
{
    return QSslCertificate(QByteArray(TestCertificatePem), QSsl::Pem);
}

} // namespace

class TestPinnedCertificate final : public QObject
{
    Q_OBJECT

private slots:
    void fingerprintIsWrittenAsOpensslWritesIt()
    {
        const QSslCertificate cert = testCertificate();
        QVERIFY(!cert.isNull());
        QCOMPARE(certificateFingerprint(cert), OpensslFingerprint);
        QCOMPARE(certificateFingerprint(QSslCertificate()), QString());
        QCOMPARE(formatFingerprint(QByteArray::fromHex("00ff10")), u"00:FF:10"_s);
    }

    void pastedFingerprintsAreRead_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("as printed") << OpensslFingerprint;
        QTest::newRow("openssl's whole line") << u"sha256 Fingerprint="_s + OpensslFingerprint;
        QTest::newRow("lower case, no colons") << OpensslFingerprint.toLower().remove(u':');
        QTest::newRow("spaces") << QString(OpensslFingerprint).replace(u':', u' ');
        QTest::newRow("SHA256: prefix, padded") << u"  SHA256:"_s + OpensslFingerprint + u"\n"_s;
    }
    void pastedFingerprintsAreRead()
    {
        QFETCH(QString, text);
        const auto bytes = parseFingerprint(text);
        QVERIFY(bytes);
        QCOMPARE(*bytes, testCertificate().digest(QCryptographicHash::Sha256));
    }

    void nonFingerprintsAreRejected_data()
    {
        QTest::addColumn<QString>("text");
        QTest::newRow("empty") << QString();
        QTest::newRow("too short (SHA-1 length)") << u"AB:CD:EF:01:23:45:67:89:AB:CD:EF:01:23:45:67:89:AB:CD:EF:01"_s;
        QTest::newRow("too long") << OpensslFingerprint + u":00"_s;
        QTest::newRow("not hex") << QString(OpensslFingerprint).replace(0, 1, u'G');
        QTest::newRow("odd digit count") << OpensslFingerprint.left(OpensslFingerprint.size() - 1);
        QTest::newRow("separator inside a byte") << u"C:FD7"_s + OpensslFingerprint.mid(5);
    }
    void nonFingerprintsAreRejected()
    {
        QFETCH(QString, text);
        QVERIFY(!parseFingerprint(text));
    }

    void aTrustedChainNeedsNoPin()
    {
        QCOMPARE(judgePeer({}, testCertificate(), {}), PeerVerdict::Trusted);
    }

    void anUntrustedCertificateIsRefusedWithoutAPin()
    {
        const QSslCertificate cert = testCertificate();
        const QList<QSslError> errors = {QSslError(QSslError::SelfSignedCertificate, cert),
                                         QSslError(QSslError::HostNameMismatch, cert)};
        QCOMPARE(judgePeer(errors, cert, {}), PeerVerdict::Refused);
        // A pin of another certificate trusts nothing here.
        QCOMPARE(judgePeer(errors, cert, QByteArray(32, '\x01')), PeerVerdict::Refused);
        // Nor does a pin that is not a SHA-256 at all.
        QCOMPARE(judgePeer(errors, cert, cert.digest(QCryptographicHash::Sha1)), PeerVerdict::Refused);
        QCOMPARE(judgePeer(errors, QSslCertificate(), cert.digest(QCryptographicHash::Sha256)), PeerVerdict::Refused);
    }

    void thePinnedCertificateIsAcceptedWhateverTheErrors()
    {
        const QSslCertificate cert = testCertificate();
        const QList<QSslError> errors = {QSslError(QSslError::SelfSignedCertificate, cert),
                                         QSslError(QSslError::HostNameMismatch, cert),
                                         QSslError(QSslError::CertificateExpired, cert)};
        QCOMPARE(judgePeer(errors, cert, *parseFingerprint(OpensslFingerprint)), PeerVerdict::Pinned);
    }

    void aRefusalSaysWhichCertificateItWas()
    {
        const QSslCertificate cert = testCertificate();
        const UntrustedCertificate u = describeUntrusted(cert, {QSslError(QSslError::SelfSignedCertificate, cert)});
        QCOMPARE(u.sha256, OpensslFingerprint);
        QVERIFY2(u.subject.contains(u"CN=gateway.test"_s), qPrintable(u.subject));
        QVERIFY2(u.subject.contains(u"O=Switchyard Tests"_s), qPrintable(u.subject));
        QVERIFY(!u.reason.isEmpty());
        const QString line = untrustedMessage(u);
        QVERIFY2(line.contains(OpensslFingerprint) && line.contains(u"CN=gateway.test"_s), qPrintable(line));
    }
};

QTEST_GUILESS_MAIN(TestPinnedCertificate)
#include "tst_pinnedcertificate.moc"
