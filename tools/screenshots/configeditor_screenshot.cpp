// Renders the Config tab of the panel over the demo (its two simulated nodes, the gateway running) and saves
// the form view and the JSON view as PNGs:
//   configeditor_screenshot docs/screenshots/config-form.png docs/screenshots/config-json.png
// The operator's steps: vllm-server1 re-weighted to 3 in the form and applied, then a third provider added,
// whose base URL is still missing (the problem is listed, marked in the form and underlined in the text),
// and for the JSON view a negative weight typed into the text.
// The language follows the system locale as in the app, so LANG=zh_CN.UTF-8 renders the Chinese panel
// (docs/screenshots/config-zh_CN.png); the demo is named as app/panel.cpp names it.
#include "config/configeditor.h"
#include "config/configform.h"
#include "config/configloader.h"
#include "demofleet.h"
#include "gateway.h"
#include "language.h"
#include "mainwindow.h"

#include "config/codeeditor.h"
#include <QApplication>
#include <QElapsedTimer>
#include <QHeaderView>
#include <QSettings>
#include <QScrollArea>
#include <QScrollBar>
#include <QStandardPaths>
#include <QTableView>
#include <QTextCursor>

#include <cstdio>

using namespace switchyard;
using namespace switchyard::ui;
using namespace Qt::Literals::StringLiterals;

namespace {

void settle(int ms)
{
    QElapsedTimer t;
    t.start();
    while (t.elapsed() < ms)
        QCoreApplication::processEvents(QEventLoop::AllEvents, 20);
}

bool save(MainWindow &window, const QString &path)
{
    settle(300);
    if (!window.grab().save(path)) {
        std::fprintf(stderr, "cannot write %s\n", qPrintable(path));
        return false;
    }
    std::printf("wrote %s\n", qPrintable(path));
    return true;
}

} // namespace

int main(int argc, char **argv)
{
    if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM"))
        qputenv("QT_QPA_PLATFORM", "offscreen");
    QApplication app(argc, argv);
    QStandardPaths::setTestModeEnabled(true); // fresh window settings, not the user's
    QSettings().clear();
    i18n::installTranslators(&app, i18n::Language::System);
    const QString formPng = argc > 1 ? QString::fromLocal8Bit(argv[1]) : u"config-form.png"_s;
    const QString jsonPng = argc > 2 ? QString::fromLocal8Bit(argv[2]) : u"config-json.png"_s;

    app::DemoFleet fleet;
    const auto json = fleet.start();
    if (!json) {
        std::fprintf(stderr, "demo: %s\n", qPrintable(json.error()));
        return 1;
    }
    auto cfg = config::parseConfig(*json);
    if (!cfg)
        return 1;
    Gateway gateway;
    MainWindow window(&gateway);
    window.setListenOverride(u"127.0.0.1:0"_s); // as --listen: any free port, for every config applied
    window.setDemoNodes(fleet.nodes());
    window.applyConfig(*cfg, QObject::tr("built-in demo"));
    window.showConfigText(QString::fromUtf8(*json), QObject::tr("built-in demo"));
    window.startGateway();
    window.resize(1280, 800);
    window.show();
    window.showView(MainWindow::View::Config);

    ConfigEditor *e = window.configEditor();
    e->showForm();
    ProvidersModel *m = e->form()->providers();
    m->setData(m->index(0, ProvidersModel::Weight), 3.0, Qt::EditRole);
    e->apply();
    e->form()->addProvider();
    e->validateNow();
    e->refreshForm();
    e->form()->selectProvider(u"vllm-server1"_s);
    e->form()->providersView()->resizeColumnsToContents();
    e->form()->providersView()->horizontalHeader()->setSectionResizeMode(ProvidersModel::BaseUrl,
                                                                         QHeaderView::Stretch);
    if (!save(window, formPng))
        return 1;
    // Optionally the bottom of the form too: the history and shared-keys settings.
    if (argc > 3) {
        QScrollArea *area = qobject_cast<QScrollArea *>(e->form());
        if (!area)
            area = e->form()->findChild<QScrollArea *>();
        if (area)
            area->verticalScrollBar()->setValue(area->verticalScrollBar()->maximum());
        if (!save(window, QString::fromLocal8Bit(argv[3])))
            return 1;
    }

    // A typo in the text as well: a negative weight, underlined where it is.
    {
        QTextCursor typo(e->textEdit()->document());
        typo.setPosition(int(e->text().indexOf(u"\"weight\": 1"_s)) + 10);
        typo.insertText(u"-"_s);
        e->validateNow();
    }
    // The problem clicked: the text at its line. The cursor then moves to the line's start, so the red
    // underline shows rather than the selection.
    e->goToProblem(0);
    QTextCursor c = e->textEdit()->textCursor();
    c.movePosition(QTextCursor::StartOfBlock);
    e->textEdit()->setTextCursor(c);
    window.hideBanner();
    return save(window, jsonPng) ? 0 : 1;
}
