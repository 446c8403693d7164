#include "welcomedialog.h"

#include "nodesconfig.h"

#include <QCommandLinkButton>
#include <QDialogButtonBox>
#include <QDir>
#include <QFormLayout>
#include <QLabel>
#include <QLineEdit>
#include <QPlainTextEdit>
#include <QPushButton>
#include <QSettings>
#include <QStackedWidget>
#include <QVBoxLayout>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {
const QString ShownKey = u"firstRun/welcomeShown"_s;
const QString LastConfigKey = u"config/lastPath"_s; // MainWindow's

QLabel *heading(const QString &text, QWidget *parent)
{
    auto *l = new QLabel(text, parent);
    QFont f = l->font();
    f.setPointSizeF(f.pointSizeF() * 1.35);
    f.setBold(true);
    l->setFont(f);
    return l;
}
} // namespace

WelcomeDialog::WelcomeDialog(QWidget *parent)
    : QDialog(parent), m_pages(new QStackedWidget(this)), m_urls(new QPlainTextEdit(this)),
      m_model(new QLineEdit(this)), m_apiKey(new QLineEdit(this)), m_listen(new QLineEdit(this)),
      m_target(new QLabel(this)), m_error(new QLabel(this))
{
    setObjectName(u"welcomeDialog"_s);
    setWindowTitle(tr("Welcome to Switchyard"));

    // Page 1: the three ways in.
    auto *welcome = new QWidget(this);
    auto *wl = new QVBoxLayout(welcome);
    auto *logo = new QLabel(welcome);
    logo->setPixmap(QIcon(u":/icons/switchyard-64.png"_s).pixmap(64, 64));
    auto *title = heading(tr("Welcome to Switchyard"), welcome);
    auto *intro =
        new QLabel(tr("Switchyard puts one OpenAI-compatible endpoint in front of your LLM nodes and shows "
                      "how each of them is doing. How would you like to start?"),
                   welcome);
    intro->setWordWrap(true);
    auto *top = new QHBoxLayout();
    top->addWidget(logo, 0, Qt::AlignTop);
    auto *tl = new QVBoxLayout();
    tl->addWidget(title);
    tl->addWidget(intro);
    top->addLayout(tl, 1);
    wl->addLayout(top);
    wl->addSpacing(8);
    auto *demo =
        new QCommandLinkButton(tr("Start the demo"),
                               tr("Two simulated vLLM nodes behind the gateway, to see the panel at work. "
                                  "Nothing leaves this computer."),
                               welcome);
    demo->setObjectName(u"welcomeDemo"_s);
    auto *open = new QCommandLinkButton(
        tr("Open my config\u2026"), tr("A Bifrost-compatible JSON file that lists your providers."), welcome);
    open->setObjectName(u"welcomeOpen"_s);
    auto *add =
        new QCommandLinkButton(tr("Add my nodes"),
                               tr("Enter your nodes' base URLs and the model they serve; Switchyard writes "
                                  "the config file for you."),
                               welcome);
    add->setObjectName(u"welcomeAddNodes"_s);
    connect(demo, &QCommandLinkButton::clicked, this, [this] { choose(Choice::Demo); });
    connect(open, &QCommandLinkButton::clicked, this, [this] { choose(Choice::OpenConfig); });
    connect(add, &QCommandLinkButton::clicked, this, [this] { showPage(Page::Nodes); });
    wl->addWidget(demo);
    wl->addWidget(open);
    wl->addWidget(add);
    wl->addStretch(1);
    auto *skipBox = new QDialogButtonBox(welcome);
    QPushButton *skip = skipBox->addButton(tr("Not now"), QDialogButtonBox::RejectRole);
    skip->setObjectName(u"welcomeSkip"_s);
    connect(skipBox, &QDialogButtonBox::rejected, this, &WelcomeDialog::reject);
    wl->addWidget(skipBox);

    // Page 2: the nodes form.
    auto *nodes = new QWidget(this);
    auto *nl = new QVBoxLayout(nodes);
    nl->addWidget(heading(tr("Add my nodes"), nodes));
    auto *explain = new QLabel(tr("One line per node: the base URL its OpenAI-compatible server listens on "
                                  "(for vLLM, the host and --port). Requests for the model are balanced over "
                                  "all of them, equally weighted; edit the file later for weights, timeouts "
                                  "and more."),
                               nodes);
    explain->setWordWrap(true);
    nl->addWidget(explain);
    m_urls->setObjectName(u"nodeUrls"_s);
    m_urls->setPlaceholderText(u"http://192.168.200.101:8030\nhttp://192.168.200.102:8030"_s);
    m_urls->setTabChangesFocus(true);
    // A stable box: five lines high and a long URL wide, whatever the problems below it say.
    m_urls->setFixedHeight(m_urls->fontMetrics().lineSpacing() * 5 + 12);
    m_urls->setMinimumWidth(m_urls->fontMetrics().horizontalAdvance(u"http://192.168.200.101:8030/v1"_s) + 24);
    m_urls->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Fixed);
    m_model->setObjectName(u"nodeModel"_s);
    m_model->setPlaceholderText(u"nemotron-3-super"_s);
    m_apiKey->setObjectName(u"nodeApiKey"_s);
    m_apiKey->setPlaceholderText(tr("optional"));
    m_apiKey->setEchoMode(QLineEdit::PasswordEchoOnEdit);
    m_listen->setObjectName(u"gatewayListen"_s);
    m_listen->setText(u"127.0.0.1:8080"_s);
    auto *form = new QFormLayout();
    form->setFieldGrowthPolicy(QFormLayout::AllNonFixedFieldsGrow);
    form->addRow(tr("Node &URLs:"), m_urls);
    form->addRow(tr("&Model:"), m_model);
    form->addRow(tr("Nodes' API &key:"), m_apiKey);
    form->addRow(tr("Gateway &listens on:"), m_listen);
    nl->addLayout(form);
    m_target->setWordWrap(true);
    m_target->setTextInteractionFlags(Qt::TextSelectableByMouse);
    nl->addWidget(m_target);
    m_error->setObjectName(u"nodesFormError"_s);
    m_error->setWordWrap(true);
    m_error->setTextFormat(Qt::PlainText);
    m_error->setStyleSheet(u"color: #b3261e;"_s);
    m_error->hide();
    nl->addWidget(m_error);
    // After the first Create, what the form says follows the fields: fixed, a problem goes; a new one shows.
    connect(m_urls, &QPlainTextEdit::textChanged, this, &WelcomeDialog::revalidate);
    for (QLineEdit *edit : {m_model, m_apiKey, m_listen})
        connect(edit, &QLineEdit::textChanged, this, &WelcomeDialog::revalidate);
    nl->addStretch(1);
    auto *nodeButtons = new QDialogButtonBox(nodes);
    QPushButton *back = nodeButtons->addButton(tr("Back"), QDialogButtonBox::ResetRole);
    QPushButton *create = nodeButtons->addButton(tr("Create and open"), QDialogButtonBox::AcceptRole);
    create->setObjectName(u"createConfig"_s);
    nodeButtons->addButton(QDialogButtonBox::Cancel);
    connect(back, &QPushButton::clicked, this, [this] { showPage(Page::Welcome); });
    connect(nodeButtons, &QDialogButtonBox::accepted, this, &WelcomeDialog::createConfig);
    connect(nodeButtons, &QDialogButtonBox::rejected, this, &WelcomeDialog::reject);
    nl->addWidget(nodeButtons);

    m_pages->addWidget(welcome);
    m_pages->addWidget(nodes);
    auto *layout = new QVBoxLayout(this);
    // The dialog grows with what it has to say (a problem per bad URL) rather than squeezing the fields.
    layout->setSizeConstraint(QLayout::SetMinimumSize);
    layout->addWidget(m_pages);
    setMinimumWidth(560);
}

void WelcomeDialog::showPage(Page page)
{
    m_pages->setCurrentIndex(page == Page::Welcome ? 0 : 1);
    if (page == Page::Nodes) {
        // Home as "~": shorter, and what the operator would type.
        QString path = NodesConfig::freePath(NodesConfig::userConfigDir());
        if (path.startsWith(QDir::homePath() + u'/'))
            path = u'~' + path.mid(QDir::homePath().size());
        m_target->setText(tr("Saved as %1").arg(QDir::toNativeSeparators(path)));
        m_urls->setFocus();
    }
}

QString WelcomeDialog::formError() const
{
    return m_error->isHidden() ? QString() : m_error->text();
}

bool WelcomeDialog::createConfig()
{
    m_attempted = true;
    const NodesForm form{m_urls->toPlainText(), m_model->text(), m_apiKey->text(), m_listen->text()};
    const auto text = NodesConfig::make(form);
    QString problem;
    if (!text) {
        problem = text.error().join(u'\n');
    } else {
        const auto written = NodesConfig::write(NodesConfig::freePath(NodesConfig::userConfigDir()), *text);
        if (written)
            m_writtenPath = *written;
        else
            problem = written.error();
    }
    if (!problem.isEmpty()) {
        showProblem(problem);
        return false;
    }
    showProblem({});
    choose(Choice::NodesWritten);
    return true;
}

void WelcomeDialog::revalidate()
{
    if (!m_attempted)
        return; // not tried yet: no complaints while the operator is still typing
    const auto text = NodesConfig::make({m_urls->toPlainText(), m_model->text(), m_apiKey->text(), m_listen->text()});
    showProblem(text ? QString() : text.error().join(u'\n'));
}

void WelcomeDialog::showProblem(const QString &problem)
{
    m_error->setText(problem);
    m_error->setVisible(!problem.isEmpty());
}

void WelcomeDialog::choose(Choice choice)
{
    m_choice = choice;
    accept();
}

bool WelcomeDialog::wanted()
{
    const QSettings settings;
    return !settings.value(ShownKey, false).toBool() && settings.value(LastConfigKey).toString().isEmpty();
}

void WelcomeDialog::setShown()
{
    QSettings().setValue(ShownKey, true);
}

} // namespace switchyard::ui
