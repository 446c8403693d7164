#include "mainwindow.h"

#include "bench/benchmarkview.h"
#include "chartsview.h"
#include "chat/chatconsole.h"
#include "config/configcontroller.h"
#include "config/configeditor.h"
#include "config/remoteconfig.h"
#include "config/configloader.h"
#include "eventlooplag.h"
#include "fleet/gatewaysview.h"
#include "gateway.h"
#include "keys/keysview.h"
#include "link/localgatewaylink.h"
#include "nodesmodel.h"
#include "nodesview.h"
#include "requestlogfollower.h"
#include "historysearchview.h"
#include "requestsview.h"
#include "settingsdialog.h"
#include "simnode/simnode.h"

#include <QAction>
#include <QApplication>
#include <QClipboard>
#include <QCloseEvent>
#include <QDateTime>
#include <QDesktopServices>
#include <QFileDialog>
#include <QFileInfo>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QPointer>
#include <QPushButton>
#include <QScrollArea>
#include <QSettings>
#include <QStatusBar>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QToolBar>
#include <QVBoxLayout>
#include <iterator>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString GeometryKey = u"window/geometry"_s;
const QString StateKey = u"window/state"_s;
const QString ViewKey = u"window/view"_s;
const QString LastConfigKey = u"config/lastPath"_s;
// The one place the documentation's address is written (Help ▸ Documentation, About).
} // namespace

MainWindow::MainWindow(Gateway *gateway, QWidget *parent) : MainWindow(gateway, nullptr, parent) {}

MainWindow::MainWindow(Gateway *gateway, config::ConfigController *controller, QWidget *parent)
    : MainWindow(static_cast<link::GatewayLink *>(nullptr), gateway, controller, parent)
{
}

MainWindow::MainWindow(link::GatewayLink *gatewayLink, Gateway *gateway, config::ConfigController *controller,
                       QWidget *parent)
    : QMainWindow(parent), m_link(gatewayLink ? gatewayLink : new link::LocalGatewayLink(gateway, this)),
      m_gateway(gateway), m_config(controller ? controller : new config::ConfigController(gateway, this)),
      m_requestLog(new RequestLogFollower(this)), m_tabs(new QTabWidget(this)), m_nodes(new NodesView(this)),
      m_charts(new ChartsView(this)), m_requests(new RequestsView(this)),
      m_keys(new KeysView(this)),
      m_configEditor(new ConfigEditor(m_config, this)),
      m_chat(new ChatConsole(gateway, this)), m_bench(new BenchmarkView(gateway, this)),
      m_gateways(new GatewaysView(this)),
      m_banner(new QFrame(this)), m_bannerText(new QLabel(this)), m_stateBanner(new GatewayBanner(this)),
      m_stateIcon(new QLabel(this)),
      m_stateText(new QLabel(this)), m_gatewayText(new QLabel(this)), m_urlText(new QLabel(this)),
      m_ratesText(new QLabel(this)), m_language(i18n::languageSetting())
{
    setObjectName(u"switchyardMainWindow"_s);
    setWindowTitle(tr("Switchyard[*]"));
    m_faultPool.setMaxThreadCount(1); // faults apply in the order they were asked for

    m_tabs->setObjectName(u"views"_s);
    m_tabs->setDocumentMode(true);
    m_tabs->addTab(m_nodes, tr("&Nodes"));
    m_tabs->addTab(m_charts, tr("&Charts"));
    m_tabs->addTab(m_requests, tr("&Requests"));
    m_tabs->addTab(m_keys, tr("&Keys"));
    m_tabs->addTab(m_configEditor, tr("Con&fig"));
    // Scrollable, so a view's minimum size (the benchmark's tables are wide) does not become the window's.
    auto scrollable = [this](QWidget *view) {
        auto *area = new QScrollArea(this);
        area->setFrameShape(QFrame::NoFrame);
        area->setWidgetResizable(true);
        area->setWidget(view);
        return area;
    };
    m_tabs->addTab(scrollable(m_chat), tr("C&hat"));
    m_tabs->addTab(scrollable(m_bench), tr("&Benchmark"));
    m_tabs->addTab(m_gateways, tr("Gate&ways"));
    m_gateways->addGateway(m_link);

    // The banner: a start that failed, a config with problems. Plain, visible, not modal.
    m_banner->setObjectName(u"banner"_s);
    m_banner->setFrameShape(QFrame::StyledPanel);
    auto *bl = new QHBoxLayout(m_banner);
    bl->setContentsMargins(10, 6, 6, 6);
    m_bannerText->setWordWrap(true);
    m_bannerText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_bannerText->setParent(m_banner);
    auto *dismiss = new QPushButton(tr("Dismiss"), m_banner);
    connect(dismiss, &QPushButton::clicked, this, &MainWindow::hideBanner);
    bl->addWidget(m_bannerText, 1);
    bl->addWidget(dismiss, 0, Qt::AlignTop);
    m_banner->hide();

    auto *central = new QWidget(this);
    auto *cl = new QVBoxLayout(central);
    cl->setContentsMargins(4, 4, 4, 0);
    cl->setSpacing(4);
    cl->addWidget(m_stateBanner);
    cl->addWidget(m_banner);
    cl->addWidget(m_tabs, 1);
    connect(m_stateBanner, &GatewayBanner::actionTriggered, this, &MainWindow::onGatewayBannerAction);
    setCentralWidget(central);

    m_stateIcon->setFixedSize(16, 16);
    m_urlText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_gatewayText->setObjectName(u"gatewayName"_s);
    m_gatewayText->setTextInteractionFlags(Qt::TextSelectableByMouse);
    statusBar()->addWidget(m_stateIcon);
    statusBar()->addWidget(m_stateText);
    statusBar()->addWidget(m_gatewayText);
    statusBar()->addWidget(m_urlText, 1);
    statusBar()->addPermanentWidget(m_ratesText);
    installLagProbeIfAsked(this); // the GUI thread's own responsiveness, for the perf scripts (docs/PERFORMANCE.md)
    // A temporary message hides the gateway state only implicitly, and QStatusBar re-adds its widgets
    // (showing them again, under the message) whenever a label's height changes: in Chinese, the rates
    // label's first CJK text is taller. Hidden explicitly, they stay hidden until the message goes.
    connect(statusBar(), &QStatusBar::messageChanged, this, [this](const QString &message) {
        for (QWidget *w : {static_cast<QWidget *>(m_stateIcon), static_cast<QWidget *>(m_stateText),
                           static_cast<QWidget *>(m_gatewayText), static_cast<QWidget *>(m_urlText)})
            w->setVisible(message.isEmpty());
    });

    createActions();
    createTray();

    if (m_gateway) {
        connect(m_gateway, &Gateway::runningChanged, this, &MainWindow::syncGatewayActions);
        connect(m_gateway, &Gateway::pausedChanged, this, &MainWindow::syncGatewayActions);
    }
    connect(m_requestLog, &RequestLogFollower::recordsArrived, this,
            [this](const QList<stats::RequestRecord> &records, qint64 dropped) {
                m_requests->append(records, dropped);
                m_nodes->addRequests(records);
            });
    // The history search asks this window's gateway, local or remote; the answer carries its ticket back.
    connect(m_requests->historySearch(), &HistorySearchView::searchRequested, this,
            [this](quint64 ticket, const history::HistoryQuery &query) { m_link->searchHistory(ticket, query); });
    connect(m_link, &link::GatewayLink::historySearched, m_requests->historySearch(), &HistorySearchView::showResult);
    connect(m_nodes, &NodesView::drainRequested, this, &MainWindow::setNodeDraining);
    connect(m_nodes, &NodesView::probeRequested, this, [this](const QString &node) {
        m_link->nodeAction(node, link::NodeAction::Probe);
    });
    connect(m_nodes, &NodesView::faultRequested, this, &MainWindow::setSimulatedFault);
    connect(m_nodes, &NodesView::startDemoRequested, this, &MainWindow::demoRequested);
    connect(m_nodes, &NodesView::openInChatRequested, this, &MainWindow::openInChat);
    // The console's "Start the gateway" goes through the window, which reports a failed start.
    connect(m_chat, &ChatConsole::startGatewayRequested, this, &MainWindow::startGateway);
    connect(m_nodes, &NodesView::openConfigRequested, this, &MainWindow::openConfigInteractive);
    connect(m_nodes, &NodesView::addNodesRequested, this, [this] { showWelcome(WelcomeDialog::Page::Nodes); });

    connectConfig();

    QSettings settings;
    if (!restoreGeometry(settings.value(GeometryKey).toByteArray()))
        resize(1280, 800);
    restoreState(settings.value(StateKey).toByteArray());
    m_tabs->setCurrentIndex(qBound(0, settings.value(ViewKey, 0).toInt(), m_tabs->count() - 1));

    attachLink();
    syncGatewayActions();
}

MainWindow::~MainWindow()
{
    if (m_link->parent() == this)
        m_link->stop();
    m_faultPool.waitForDone();
}

void MainWindow::attachLink()
{
    const bool remote = isRemote();
    m_nodes->setLocalActionsAvailable(!remote);
    for (QAction *a : {m_openConfig, m_startDemo, m_addNodes})
        a->setVisible(!remote);
    m_gatewayText->setText(tr("Gateway: %1").arg(m_link->displayName()));
    m_gatewayText->setToolTip(remote ? tr("A remote gateway, seen over its management API")
                                     : tr("The gateway running inside this panel"));
    connect(m_link, &link::GatewayLink::statusChanged, this, &MainWindow::onStatus);
    connect(m_link, &link::GatewayLink::linkStatusChanged, this, &MainWindow::onLinkStatus);
    connect(m_link, &link::GatewayLink::commandFinished, this, &MainWindow::onCommandFinished);
    if (remote) {
        // The editor shows the gateway's running config and applies over the link; chat goes to it too.
        m_remoteConfig = new RemoteConfig(m_link, m_configEditor, this);
        aimToolsAtTheLink();
    }
    m_charts->setLink(m_link);
    m_requestLog->setLink(m_link);
    m_keys->setLink(m_link);
    m_linkStatus = m_link->linkStatus();
    m_status = m_link->status();
    updateTitle();
    m_link->start();
    if (m_status) {
        onStatus(*m_status);
    } else {
        updateIndicator();
        updateStatusBar();
    }
}

void MainWindow::connectConfig()
{
    connect(m_config, &config::ConfigController::applied, this, &MainWindow::onConfigApplied);
    // PUT /api/config reaches the panel's gateway too: the open file stays the truth (saved first, the
    // editor notices the change on disk), and the window says what happened.
    connect(m_config, &config::ConfigController::apiConfigApplied, this, [this](const Gateway::ApplyResult &r) {
        showNote(tr("A config arrived over the API (PUT /api/config) and was applied: %1")
                     .arg(r.changes.isEmpty() ? tr("no changes") : r.changes.summary()));
    });
    connect(m_config, &config::ConfigController::apiConfigRefused, this, [this](const QString &error) {
        showError(tr("A config arrived over the API but was not applied: %1").arg(error).toHtmlEscaped());
    });
    // The editor's Apply goes through applyConfig (the --listen override, the title, the banner); its Open
    // is the window's (which applies what it opens).
    // (A success is said by the editor itself, in green, and in the status bar: not in the warning banner.)
    m_configEditor->setApplier([this](const config::GatewayConfig &cfg, const QString &source) {
        return applyConfig(cfg, source);
    });
    connect(m_configEditor, &ConfigEditor::openRequested, this, &MainWindow::openConfigInteractive);
    connect(m_configEditor, &ConfigEditor::documentStateChanged, this, &MainWindow::updateTitle);
    connect(m_configEditor, &ConfigEditor::fileSaved, this, [](const QString &path) {
        QSettings().setValue(LastConfigKey, path); // the next start opens what was saved
    });
}

void MainWindow::setListenOverride(const QString &listen)
{
    if (const auto set = m_config->setListenOverride(listen); !set)
        showError(tr("--listen %1: %2").arg(listen, set.error()).toHtmlEscaped());
}

QString MainWindow::lastConfigPath()
{
    return QSettings().value(LastConfigKey).toString();
}

WelcomeDialog *MainWindow::showWelcome(WelcomeDialog::Page page)
{
    auto *dialog = new WelcomeDialog(this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    dialog->showPage(page);
    connect(dialog, &QDialog::finished, this, [this, dialog] { onWelcomeFinished(dialog); });
    dialog->open();
    return dialog;
}

void MainWindow::onWelcomeFinished(WelcomeDialog *dialog)
{
    WelcomeDialog::setShown(); // whatever was chosen: the Nodes page and the File menu offer the same
    switch (dialog->choice()) {
    case WelcomeDialog::Choice::Demo:
        emit demoRequested();
        break;
    case WelcomeDialog::Choice::OpenConfig:
        // After the dialog has gone, so the file dialog is not stacked on it.
        QMetaObject::invokeMethod(this, &MainWindow::openConfigInteractive, Qt::QueuedConnection);
        break;
    case WelcomeDialog::Choice::NodesWritten:
        if (openConfigFile(dialog->writtenPath())) {
            if (m_gateway && !m_gateway->isRunning() && !m_gateway->isStopping())
                startGateway();
            statusBar()->showMessage(tr("Config written to %1").arg(dialog->writtenPath()), 15000);
        }
        break;
    case WelcomeDialog::Choice::None:
        break;
    }
}

QDialog *MainWindow::showSettings()
{
    auto *dialog = new SettingsDialog(m_language, this);
    dialog->setAttribute(Qt::WA_DeleteOnClose);
    connect(dialog, &QDialog::accepted, this, [this, dialog] {
        if (dialog->restartNeeded())
            showNote(tr("The language changes the next time Switchyard starts."));
    });
    dialog->open();
    return dialog;
}

bool MainWindow::openConfigFile(const QString &path)
{
    return openConfig(path, true);
}

bool MainWindow::openConfig(const QString &path, bool askAboutEdits)
{
    if (m_configEditor && askAboutEdits && !m_configEditor->maybeDiscard(ConfigEditor::Reason::Open))
        return false;
    // The editor reads the file and the gateway gets exactly those bytes: what is applied is what is shown.
    auto parsed = [&]() -> Expected<config::GatewayConfig, config::ConfigProblems> {
        if (!m_configEditor)
            return m_config->openConfigFile(path);
        const auto bytes = m_configEditor->openFile(path);
        if (!bytes)
            return unexpected(config::ConfigProblems{config::ConfigProblem{path, 0, 0, bytes.error()}});
        return config::parseConfig(*bytes);
    }();
    if (!parsed) {
        QStringList lines;
        for (const config::ConfigProblem &p : parsed.error())
            lines << p.toString().toHtmlEscaped();
        QString html = tr("<b>%1 cannot be used</b> (problems: %2); the running configuration stays.")
                           .arg(path.toHtmlEscaped())
                           .arg(parsed.error().size())
                       % u"<br>"_s % lines.join(u"<br>"_s);
        if (m_configEditor && !m_configEditor->filePath().isEmpty()) {
            html += u"<br>"_s % tr("The file is open in the Config tab: fix it there, then Apply.").toHtmlEscaped();
            showView(View::Config);
        }
        showError(html);
        return false;
    }
    applyConfig(*parsed, QFileInfo(path).absoluteFilePath());
    if (m_configEditor)
        m_configEditor->markApplied();
    QSettings().setValue(LastConfigKey, QFileInfo(path).absoluteFilePath());
    return true;
}

void MainWindow::openConfigInteractive()
{
    // Asked before the file dialog: nobody wants to pick a file and then be told to save first.
    if (m_configEditor && !m_configEditor->maybeDiscard(ConfigEditor::Reason::Open))
        return;
    const QString start = lastConfigPath().isEmpty() ? QString() : QFileInfo(lastConfigPath()).absolutePath();
    const QString path = QFileDialog::getOpenFileName(this, tr("Open a config file"), start,
                                                      tr("Config files (*.json);;All files (*)"));
    if (path.isEmpty())
        return;
    if (openConfig(path, false) && m_gateway && !m_gateway->isRunning() && !m_gateway->isStopping())
        startGateway();
}

void MainWindow::showConfigText(const QString &json, const QString &source)
{
    if (!m_configEditor)
        return;
    m_configEditor->setUntitledText(json, source);
    m_configEditor->markApplied();
}

void MainWindow::updateTitle()
{
    // Which gateway is shown, always: this process's or a remote one's URL.
    const QString gateway = m_link->displayName();
    setWindowTitle(m_configSource.isEmpty() ? tr("Switchyard \u2014 %1[*]").arg(gateway)
                                            : tr("Switchyard \u2014 %1 \u2014 %2[*]").arg(m_configSource, gateway));
    setWindowModified(m_configEditor && m_configEditor->isModified());
}

Gateway::ApplyResult MainWindow::applyConfig(config::GatewayConfig cfg, const QString &source)
{
    return m_config->apply(std::move(cfg), source);
}

void MainWindow::onConfigApplied(const Gateway::ApplyResult &result, const QString &source)
{
    m_configSource = source;
    updateTitle();
    if (!result.listenError.isEmpty()) {
        // A running gateway keeps its old address when the new one cannot be bound.
        showError(u"<b>"_s % tr("The new listen address cannot be used.").toHtmlEscaped() % u"</b> "_s
                  % result.listenError.toHtmlEscaped() % u"<br>"_s
                  % tr("The gateway keeps listening on %1.").arg(m_gateway ? m_gateway->listenUrl() : QString()).toHtmlEscaped());
    } else if (const auto host = m_config->exposedHost()) {
        // The operator opted out of the safe default: say so every time, not only in the file.
        showError(u"<b>"_s % tr("The gateway is reachable from the network without API keys.").toHtmlEscaped()
                  % u"</b> "_s
                  % tr("Anyone who can reach %1 can use your nodes (switchyard.allow_unauthenticated_network_access "
                       "is true). Set switchyard.api_keys to require a key.")
                        .arg(*host)
                        .toHtmlEscaped());
    } else if (m_gateway && m_gateway->isRunning() && !result.changes.isEmpty()) {
        // (Applying never starts or stops the gateway: running now is running before.)
        statusBar()->showMessage(tr("Configuration applied: %1").arg(result.changes.summary()), 15000);
    }
}

void MainWindow::setDemoNodes(std::vector<sim::SimNode *> nodes)
{
    m_demoNodes = nodes;
    m_nodes->setSimulatedNodes(SimulatedNodes(std::move(nodes)));
}

bool MainWindow::startGateway()
{
    if (!m_gateway) {
        // A remote gateway is never started from here, only resumed (the link answers with commandFinished).
        m_link->setAccepting(true);
        return true;
    }
    if (m_gateway->isRunning()) {
        if (m_gateway->isPaused()) // paused over the API (POST /api/gateway/pause): on again
            m_gateway->setPaused(false);
        return true;
    }
    const auto url = m_gateway->start();
    if (!url) {
        m_lastStartFailed = true;
        QString hint;
        const QString e = url.error().toLower();
        if (e.contains(u"in use"_s))
            hint = tr("Another program is already using this address. Stop it, or pick another port with "
                      "--listen HOST:PORT or in the config's \"switchyard\" section, then switch the gateway on again.");
        else if (e.contains(u"permission"_s) || e.contains(u"access"_s))
            hint = tr("Ports below 1024 need extra privileges: pick a port above 1024.");
        else
            hint = tr("Fix the listen address, then switch the gateway on again.");
        showError(u"<b>"_s % tr("The gateway could not start.").toHtmlEscaped() % u"</b> "_s % url.error().toHtmlEscaped()
                  % u"<br>"_s % hint.toHtmlEscaped() % u' '
                  % tr("The panel keeps working meanwhile.").toHtmlEscaped());
        if (m_tray)
            m_tray->showMessage(tr("Switchyard"), tr("The gateway could not start: %1").arg(url.error()),
                                QSystemTrayIcon::Critical);
    } else {
        m_lastStartFailed = false;
        if (!bannerText().isEmpty() && m_banner->property("kind").toString() == u"error"_s)
            hideBanner();
    }
    updateIndicator();
    updateStatusBar();
    syncGatewayActions();
    return bool(url);
}

void MainWindow::stopGateway()
{
    if (!m_gateway) {
        m_link->setAccepting(false); // paused: new requests get 503, in-flight ones finish
        return;
    }
    m_gateway->stop();
    syncGatewayActions();
}

void MainWindow::setNodeDraining(const QString &node, bool drained)
{
    m_link->nodeAction(node, drained ? link::NodeAction::Drain : link::NodeAction::Enable);
}

void MainWindow::setSimulatedFault(const QString &node, sim::FaultMode mode)
{
    for (sim::SimNode *n : m_demoNodes) {
        if (n->options().name != node)
            continue;
        // Then let the gateway look at once rather than at its next interval.
        QPointer<MainWindow> self(this);
        m_faultPool.start([n, mode, self, node] {
            n->setFault(mode);
            QMetaObject::invokeMethod(qApp, [self, node] {
                if (self)
                    self->m_link->nodeAction(node, link::NodeAction::Probe);
            });
        });
    }
}

void MainWindow::syncGatewayActions()
{
    // This process's gateway is asked directly (a start shows at once); a remote one by its last status.
    bool running = false, stopping = false, accepting = false;
    if (m_gateway) {
        running = m_gateway->isRunning();
        stopping = m_gateway->isStopping();
        accepting = running && !stopping && !m_gateway->isPaused();
    } else if (m_status) {
        running = m_status->running;
        stopping = m_status->stopping;
        accepting = m_status->accepting;
    }
    const bool reachable = m_gateway || m_linkStatus.state == link::LinkState::Connected;
    m_toggle->setChecked(accepting);
    m_toggle->setEnabled(!stopping && reachable && (m_gateway || running));
    if (m_gateway) {
        m_toggle->setText(stopping    ? tr("Gateway draining\u2026")
                          : accepting ? tr("&Gateway on")
                          : running   ? tr("&Gateway paused")
                                      : tr("&Gateway off"));
        m_toggle->setToolTip(tr("Switch the gateway on or off (Ctrl+G). Off lets requests in flight finish."));
    } else {
        m_toggle->setText(stopping  ? tr("Gateway draining\u2026")
                          : accepting ? tr("&Gateway on")
                          : running   ? tr("&Gateway paused")
                                      : tr("&Gateway off"));
        m_toggle->setToolTip(tr("Pause or resume the remote gateway (Ctrl+G). Paused, it answers new requests "
                                "with 503; requests in flight finish."));
    }
    m_copyUrl->setEnabled(m_gateway ? running : !m_link->apiUrl().isEmpty());
    m_toggle->setIcon(gatewayToggleIcon(accepting));
    updateGatewayBanner();
}

void MainWindow::replaceView(View view, QWidget *widget, const QString &label)
{
    const int i = int(view);
    QWidget *old = m_tabs->widget(i);
    const QString text = label.isEmpty() ? m_tabs->tabText(i) : label;
    const bool current = m_tabs->currentIndex() == i;
    m_tabs->removeTab(i);
    m_tabs->insertTab(i, widget, text);
    if (current)
        m_tabs->setCurrentIndex(i);
    auto holds = [old](QWidget *w) { return w && (old == w || old->isAncestorOf(w)); };
    if (holds(m_configEditor))
        m_configEditor = nullptr;
    else if (holds(m_chat))
        m_chat = nullptr;
    else if (holds(m_bench))
        m_bench = nullptr;
    old->deleteLater();
}

void MainWindow::openInChat(const QString &node)
{
    if (!m_chat)
        return;
    QString model;
    if (m_status) {
        for (const link::NodeStatus &n : m_status->nodes) {
            if (n.name != node)
                continue;
            for (const QString &m : n.models) {
                if (model.isEmpty() && m != u"*")
                    model = m;
            }
        }
    }
    showView(View::Chat);
    m_chat->openWith(model.isEmpty() ? QString() : node % u'/' % model);
}

void MainWindow::addFleetGateway(link::GatewayLink *link)
{
    m_gateways->addGateway(link);
}

void MainWindow::removeFleetGateway(link::GatewayLink *link)
{
    if (link != m_link) // a window always lists its own gateway
        m_gateways->removeGateway(link);
}

void MainWindow::showView(View view)
{
    m_tabs->setCurrentIndex(int(view));
}

MainWindow::View MainWindow::currentView() const
{
    return View(m_tabs->currentIndex());
}

void MainWindow::requestQuit()
{
    if (m_quitting)
        return;
    // Unsaved config edits first: saved, discarded on purpose, or the quit is off.
    if (m_configEditor && m_configEditor->isModified()) {
        if (!m_configEditor->maybeDiscard(ConfigEditor::Reason::Close)) {
            showView(View::Config);
            return;
        }
    }
    // A remote gateway keeps running when its panel quits; this process's stops with it, so quitting
    // while it runs is asked about (never when it is off with nothing in flight).
    if (!m_gateway || (!m_gateway->isRunning() && !m_gateway->isStopping())) {
        quitDraining();
        return;
    }
    const qint64 inFlight = m_gateway->snapshot().inFlight;
    auto *box = new QMessageBox(QMessageBox::Question, tr("Quit Switchyard"),
                                inFlight > 0 ? tr("The gateway stops with the panel. Requests in flight through it: %1.")
                                                   .arg(QLocale().toString(inFlight))
                                             : tr("The gateway stops with the panel: clients using it get no answer "
                                                  "until it runs again."),
                                QMessageBox::NoButton, this);
    box->setObjectName(u"quitQuestion"_s);
    const QString headless = tr("To keep a gateway running without the panel, run it headless: "
                                "switchyard --headless --config FILE (see the documentation).");
    box->setInformativeText(inFlight > 0 ? tr("Let them finish (up to %1 s), or cut them now?")
                                                   .arg(m_gateway->config().settings.drainTimeoutMs / 1000)
                                               % u"\n\n"_s % headless
                                         : headless);
    QPushButton *drain = nullptr;
    QPushButton *cut = nullptr;
    if (inFlight > 0) {
        drain = box->addButton(tr("Let them finish, then quit"), QMessageBox::AcceptRole);
        cut = box->addButton(tr("Quit now"), QMessageBox::DestructiveRole);
        box->setDefaultButton(drain);
    } else {
        drain = box->addButton(tr("Quit"), QMessageBox::AcceptRole);
        box->setDefaultButton(drain);
    }
    drain->setObjectName(u"quitButton"_s);
    if (cut)
        cut->setObjectName(u"quitNowButton"_s);
    box->addButton(QMessageBox::Cancel);
    box->setEscapeButton(QMessageBox::Cancel);
    box->setAttribute(Qt::WA_DeleteOnClose);
    connect(box, &QMessageBox::buttonClicked, this, [this, drain, cut](QAbstractButton *b) {
        if (b == drain) {
            quitDraining();
        } else if (cut && b == cut) {
            m_quitting = true;
            m_gateway->stopNow();
            completeQuit();
        }
    });
    box->open();
}

void MainWindow::quitDraining()
{
    m_quitting = true;
    if (!m_gateway || (!m_gateway->isRunning() && !m_gateway->isStopping())) {
        completeQuit();
        return;
    }
    connect(m_gateway, &Gateway::stopped, this, &MainWindow::completeQuit, Qt::UniqueConnection);
    const qint64 inFlight = m_gateway->snapshot().inFlight;
    if (!m_gateway->isStopping())
        m_gateway->stop();
    statusBar()->showMessage(tr("Letting the requests in flight (%1) finish before quitting\u2026").arg(inFlight));
    syncGatewayActions();
}

void MainWindow::completeQuit()
{
    if (m_closeAccepted)
        return;
    saveSettings();
    m_closeAccepted = true;
    m_link->stop();
    close();
    emit quitFinished();
}

void MainWindow::saveSettings() const
{
    QSettings settings;
    settings.setValue(GeometryKey, saveGeometry());
    settings.setValue(StateKey, saveState());
    settings.setValue(ViewKey, m_tabs->currentIndex());
}

void MainWindow::closeEvent(QCloseEvent *event)
{
    if (m_closeAccepted) {
        event->accept();
        return;
    }
    event->ignore();
    requestQuit();
}

} // namespace switchyard::ui
