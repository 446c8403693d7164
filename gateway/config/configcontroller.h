#pragma once

// The one place where a config becomes the running one, for headless mode and the panel alike:
//  - validation (config::parseConfig), also on a worker thread so a large text never stalls the owner's;
//  - apply to the Gateway with the --listen override, and the exposure warning when the operator has opted
//    out of the safe default (reachable from the network without API keys);
//  - the config file the gateway runs from: read, saved atomically with a .bak (a valid config is never
//    overwritten by an invalid one), watched for changes by other programs (including those that save by
//    renaming a new file over the old one), and reloaded from on SIGHUP or a change when asked to;
//  - PUT /api/config: installed as the gateway's config update handler, it saves to the file first (so a
//    restart keeps the change), then applies.
// What the operator sees (the log in headless mode, the banner and the editor in the panel) follows the
// signals; nothing here speaks to a person directly. Lives on the gateway's thread.

#include "common/expected.h"
#include "config/config.h"
#include "config/configfile.h"
#include "config/configloader.h"
#include "gateway.h"

#include <QByteArray>
#include <QFuture>
#include <QObject>
#include <QPointer>
#include <QString>
#include <optional>

class QFileSystemWatcher;
class QTimer;

namespace switchyard::config {

struct ConfigValidation
{
    std::optional<GatewayConfig> config; // set: valid
    ConfigProblems problems;             // every problem found when not
    qint64 micros = 0;                   // how long it took
};

class ConfigController final : public QObject
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigController)

public:
    // gateway: the one to apply to; it must outlive this object's use of it. Null for an editor on its
    // own, which validates, saves and watches but puts nothing into service.
    explicit ConfigController(Gateway *gateway, QObject *parent = nullptr);
    ~ConfigController() override;

    Gateway *gateway() const { return m_gateway; }

    // --- validation
    static ConfigValidation validate(QByteArrayView json, const EnvLookup &env = processEnvironment());
    // On a thread of the global pool; the future carries the result.
    static QFuture<ConfigValidation> validateInBackground(QByteArray json, EnvLookup env);

    // --- the --listen override: "HOST:PORT" put into every config applied from now on (empty: none).
    // Returns the address now put in, or what is wrong with the text (the override then stays as it was).
    Expected<std::optional<ListenAddress>, QString> setListenOverride(const QString &listen);
    QString listenOverride() const { return m_listen; }

    // --- apply
    // Puts config into service (live: requests in flight finish on the old table); source names it
    // ("/etc/switchyard/config.json", "built-in demo"). Emits applied().
    Gateway::ApplyResult apply(GatewayConfig config, const QString &source);
    // Parses json (the process environment for env.NAME) and applies it; the problems when it is invalid.
    Expected<Gateway::ApplyResult, ConfigProblems> applyText(QByteArrayView json, const QString &source);
    QString source() const { return m_source; } // what the running config is, as named when applied
    // The listen host when the running config is reachable from the network without API keys (the
    // operator set allow_unauthenticated_network_access): to be said every time it is applied.
    std::optional<QString> exposedHost() const;
    QString exposureWarning() const; // the same in an English sentence for the log; empty when not exposed

    // --- the file: the document the gateway runs from. PUT /api/config saves to it.
    QString filePath() const { return m_path; } // empty: none (the demo, a text not saved yet)
    // Reads path, makes it the file and watches it. Nothing is applied.
    Expected<QByteArray, FileError> openFile(const QString &path);
    // openFile, then validates what it read (the process environment): a read error is one problem whose
    // path is the file's name, as loadConfigFile says it.
    Expected<GatewayConfig, ConfigProblems> openConfigFile(const QString &path);
    void closeFile(); // no file any more: nothing is watched, PUT /api/config applies in memory
    // Reads the file again: what it holds now is what this process knows of it.
    Expected<QByteArray, FileError> rereadFile();
    // Saves bytes (if they are a valid config) to path, keeping the previous version as <path>.bak; path
    // becomes the file.
    Expected<SavedConfig, FileError> saveAs(const QString &path, const QByteArray &bytes);

    // Headless mode: a change of the file on disk is applied at once (reload()) instead of only reported.
    void setReloadOnChange(bool reload) { m_reloadOnChange = reload; }
    // Reads, validates and applies the file (SIGHUP, a change on disk). An invalid file is refused and the
    // running config stays. Our own save of a config that came over the API is already running: skipped.
    void reload(const QString &why);

signals:
    void applied(const switchyard::Gateway::ApplyResult &result, const QString &source);
    // PUT /api/config: applied (savedTo: the file written, if any), or not because the file could not be
    // saved.
    void apiConfigApplied(const switchyard::Gateway::ApplyResult &result, const QString &savedTo);
    void apiConfigRefused(const QString &error);
    void reloaded(const QString &why, const switchyard::Gateway::ApplyResult &result);
    void reloadRejected(const QString &why, const switchyard::config::ConfigProblems &problems);
    // The file on disk no longer holds what this process last read or wrote: another program changed it
    // (or PUT /api/config saved to it, which the open editor has not seen either).
    void fileChanged(const QString &path);
    void fileMissing(const QString &path);  // deleted or renamed away
    void fileRestored(const QString &path); // back, as this process knows it

private:
    Gateway::ConfigUpdate updateFromApi(const GatewayConfig &parsed, const QByteArray &text);
    void watch();
    void checkDisk();
    void takeFile(const QString &path, const QByteArray &bytes);

    QPointer<Gateway> m_gateway;
    QString m_listen;
    std::optional<ListenAddress> m_listenAddress;
    QString m_source;
    QString m_path;
    QByteArray m_knownBytes;   // the file as this process last read or wrote it
    QByteArray m_apiSavedText; // what PUT /api/config saved there, already running
    bool m_missing = false;
    bool m_reloadOnChange = false;
    QFileSystemWatcher *m_watcher;
    QTimer *m_settle;
};

} // namespace switchyard::config
