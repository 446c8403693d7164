// The main window's menus, toolbar and tray menu: every command the panel offers, with its shortcut.
// What the commands do lives in mainwindow.cpp; this file only says where each one is found.
#include "mainwindow.h"

#include "config/configeditor.h"
#include "helpdocs.h"
#include "requestsview.h"

#include <QAction>
#include <QClipboard>
#include <QCoreApplication>
#include <QDesktopServices>
#include <QGuiApplication>
#include <QIcon>
#include <QLineEdit>
#include <QMenu>
#include <QMenuBar>
#include <QMessageBox>
#include <QSystemTrayIcon>
#include <QTabWidget>
#include <QToolBar>
#include <iterator>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

void MainWindow::createActions()
{
    createFileMenu();
    createGatewayMenu();
    createViewMenu();
    createHelpMenu();

    QToolBar *bar = addToolBar(tr("Gateway"));
    bar->setObjectName(u"gatewayToolBar"_s);
    bar->setMovable(false);
    bar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    bar->addAction(m_toggle);
    bar->addAction(m_copyUrl);
    bar->addSeparator();
    bar->addAction(m_openConfig);
}

void MainWindow::createFileMenu()
{
    QMenu *file = menuBar()->addMenu(tr("&File"));
    m_openConfig = file->addAction(tr("&Open config\u2026"), this, &MainWindow::openConfigInteractive);
    m_openConfig->setShortcut(QKeySequence::Open);
    m_startDemo = file->addAction(tr("Start the &demo"), this, &MainWindow::demoRequested);
    m_addNodes = file->addAction(tr("&Add nodes\u2026"), this, [this] { showWelcome(WelcomeDialog::Page::Nodes); });
    QAction *connectTo = file->addAction(tr("&Connect to gateway\u2026"), this, &MainWindow::connectRequested);
    connectTo->setObjectName(u"connectToGateway"_s);
    connectTo->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_O));
    file->addSeparator();
    m_settings = file->addAction(tr("&Settings\u2026"), this, &MainWindow::showSettings);
    m_settings->setShortcut(QKeySequence::Preferences);
    m_settings->setMenuRole(QAction::PreferencesRole);
    file->addSeparator();
    // The editor's own actions: Save works from any tab (the window-wide shortcut), the rest are menu items.
    for (QAction *a : {m_configEditor->saveAction(), m_configEditor->saveAsAction(), m_configEditor->importAction(),
                       m_configEditor->exportAction()}) {
        a->setShortcutContext(Qt::WindowShortcut);
        file->addAction(a);
    }
    m_configEditor->saveAction()->setText(tr("&Save config"));
    m_configEditor->saveAsAction()->setText(tr("Save config &as\u2026"));
    m_configEditor->importAction()->setText(tr("&Import a Bifrost config\u2026"));
    m_configEditor->exportAction()->setText(tr("&Export for Bifrost\u2026"));
    file->addSeparator();
    m_quit = file->addAction(tr("&Quit"), this, &MainWindow::requestQuit);
    m_quit->setShortcut(QKeySequence::Quit);
    m_quit->setShortcutContext(Qt::ApplicationShortcut);
}

void MainWindow::createGatewayMenu()
{
    QMenu *gw = menuBar()->addMenu(tr("&Gateway"));
    m_toggle = new QAction(tr("&Gateway on"), this);
    m_toggle->setObjectName(u"gatewayToggle"_s);
    m_toggle->setCheckable(true);
    m_toggle->setShortcut(QKeySequence(Qt::CTRL | Qt::Key_G));
    m_toggle->setToolTip(tr("Switch the gateway on or off (Ctrl+G). Off lets requests in flight finish."));
    connect(m_toggle, &QAction::triggered, this, [this](bool on) {
        if (on)
            startGateway();
        else
            stopGateway();
        syncGatewayActions();
    });
    gw->addAction(m_toggle);
    m_copyUrl = gw->addAction(tr("&Copy gateway URL"), this, [this] {
        const QString url = m_gateway ? m_gateway->listenUrl() : m_link->apiUrl().toString();
        if (!url.isEmpty())
            QGuiApplication::clipboard()->setText(url);
    });
    m_copyUrl->setShortcut(QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_C));
}

void MainWindow::createViewMenu()
{
    QMenu *view = menuBar()->addMenu(tr("&View"));
    const QString names[] = {tr("&Nodes"), tr("&Charts"), tr("&Requests"), tr("&Keys"), tr("Con&fig"), tr("C&hat"), tr("&Benchmark"),
                             tr("Gate&ways")};
    for (int i = 0; i < int(std::size(names)); ++i) {
        QAction *a = view->addAction(names[i], this, [this, i] { m_tabs->setCurrentIndex(i); });
        a->setShortcut(QKeySequence(Qt::CTRL | Qt::Key(Qt::Key_1 + i)));
    }
    view->addSeparator();
    // Ctrl+Tab / Ctrl+Shift+Tab as in a browser, from anywhere in the window (a table or an editor keeps
    // plain Tab for itself).
    QAction *next = view->addAction(tr("Ne&xt tab"), this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + 1) % m_tabs->count());
    });
    next->setObjectName(u"nextTabAction"_s);
    next->setShortcuts({QKeySequence(Qt::CTRL | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageDown)});
    next->setShortcutContext(Qt::WindowShortcut);
    QAction *previous = view->addAction(tr("Pre&vious tab"), this, [this] {
        m_tabs->setCurrentIndex((m_tabs->currentIndex() + m_tabs->count() - 1) % m_tabs->count());
    });
    previous->setObjectName(u"previousTabAction"_s);
    previous->setShortcuts({QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Backtab),
                            QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Tab), QKeySequence(Qt::CTRL | Qt::Key_PageUp)});
    previous->setShortcutContext(Qt::WindowShortcut);
    view->addSeparator();
    QAction *find = view->addAction(tr("&Filter requests"), this, [this] {
        showView(View::Requests);
        if (auto *edit = m_requests->findChild<QLineEdit *>(u"requestFilter"_s))
            edit->setFocus();
    });
    find->setShortcut(QKeySequence::Find);
}

void MainWindow::createHelpMenu()
{
    QMenu *help = menuBar()->addMenu(tr("&Help"));
    QAction *docs = help->addAction(tr("&Documentation"), this, [] { QDesktopServices::openUrl(documentationUrl()); });
    docs->setObjectName(u"documentationAction"_s);
    docs->setShortcut(QKeySequence::HelpContents);
    docs->setToolTip(documentationUrl().toString());
    help->addSeparator();
    QAction *about = help->addAction(tr("&About Switchyard"), this, [this] {
        // The application's icon, not the window's (which is the gateway's state).
        auto *box = new QMessageBox(QMessageBox::NoIcon, tr("About Switchyard"),
                                    tr("<b>Switchyard %1</b><p>A control panel with an embedded OpenAI-compatible "
                                       "gateway for self-hosted LLM nodes.</p><p>Documentation: <a href=\"%2\">%2</a></p>")
                                        .arg(QCoreApplication::applicationVersion(), documentationUrl().toString()),
                                    QMessageBox::Ok, this);
        box->setObjectName(u"aboutBox"_s);
        box->setTextFormat(Qt::RichText);
        box->setIconPixmap(QIcon(u":/icons/switchyard-256.png"_s).pixmap(64, 64));
        box->setAttribute(Qt::WA_DeleteOnClose);
        box->open();
    });
    about->setObjectName(u"aboutAction"_s);
    about->setMenuRole(QAction::AboutRole);
}

void MainWindow::createTray()
{
    // The menu exists even without a tray (tests drive it); the icon only where a tray is available.
    m_trayMenu = new QMenu(this);
    m_showWindow = m_trayMenu->addAction(tr("Show the panel"), this, [this] {
        showNormal();
        raise();
        activateWindow();
    });
    m_trayMenu->addAction(m_toggle);
    m_trayMenu->addSeparator();
    m_trayMenu->addAction(m_quit);
    if (!QSystemTrayIcon::isSystemTrayAvailable())
        return;
    m_tray = new QSystemTrayIcon(this);
    m_tray->setContextMenu(m_trayMenu);
    connect(m_tray, &QSystemTrayIcon::activated, this, [this](QSystemTrayIcon::ActivationReason reason) {
        if (reason != QSystemTrayIcon::Trigger)
            return;
        if (isVisible() && !isMinimized()) {
            hide();
        } else {
            showNormal();
            raise();
            activateWindow();
        }
    });
    m_tray->show();
}

QUrl MainWindow::documentationUrl()
{
    return ui::documentationUrl();
}

} // namespace switchyard::ui
