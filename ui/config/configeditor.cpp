#include "configeditor.h"

#include "codeeditor.h"
#include "configform.h"
#include "jsonhighlighter.h"

#include <QAction>
#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QElapsedTimer>
#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QFileSystemWatcher>
#include <QFrame>
#include <QHBoxLayout>
#include <QLabel>
#include <QListWidget>
#include <QMessageBox>
#include <QPushButton>
#include <QSaveFile>
#include <QSplitter>
#include <QStyle>
#include <QTabWidget>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>
#include <QtConcurrent>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

namespace {

// As the loader: a config is a few kilobytes; this is a wrong file, not a config.
constexpr qint64 kMaxFileBytes = 16LL * 1024 * 1024;
const QByteArray Bom("\xEF\xBB\xBF");
constexpr int ProblemStartRole = Qt::UserRole + 1;
constexpr int ProblemEndRole = Qt::UserRole + 2;

// Reads at most kMaxFileBytes; the error is a sentence for the operator.
Expected<QByteArray, QString> readFile(const QString &path)
{
    const QFileInfo info(path);
    if (info.isDir())
        return unexpected(ConfigEditor::tr("it is a directory"));
    QFile f(path);
    if (!f.open(QIODevice::ReadOnly))
        return unexpected(f.errorString());
    if (f.size() > kMaxFileBytes)
        return unexpected(ConfigEditor::tr("the file is %1 bytes, too big to be a config").arg(f.size()));
    QByteArray bytes = f.read(kMaxFileBytes + 1);
    if (f.error() != QFileDevice::NoError)
        return unexpected(f.errorString());
    return bytes;
}

// Offsets where each line of text starts.
std::vector<int> lineStarts(QStringView text)
{
    std::vector<int> starts{0};
    for (qsizetype i = 0; i < text.size(); ++i) {
        if (text[i] == u'\n')
            starts.push_back(int(i + 1));
    }
    return starts;
}

} // namespace

QString LocatedProblem::text() const
{
    const QString what = problem.path.isEmpty() || problem.line > 0
                             ? problem.message
                             : problem.path + u": "_s + problem.message;
    if (line <= 0)
        return what;
    return QString::number(line) + u':' + QString::number(column) + u"  "_s + what;
}

QList<LocatedProblem> locateProblems(const config::ConfigProblems &problems, QStringView text)
{
    QList<LocatedProblem> out;
    const std::vector<int> starts = lineStarts(text);
    const JsonTextIndex index = JsonTextIndex::build(text);
    auto lineEnd = [&](size_t line) {
        return line + 1 < starts.size() ? starts[line + 1] - 1 : int(text.size());
    };
    for (const config::ConfigProblem &p : problems) {
        LocatedProblem lp{p};
        if (p.line > 0) {
            if (size_t(p.line - 1) < starts.size()) {
                const size_t l = size_t(p.line - 1);
                lp.start = lp.end = std::min(starts[l] + std::max(p.column, 1) - 1, lineEnd(l));
            }
            lp.line = p.line;
            lp.column = p.column;
        } else if (const auto path = parseJsonPath(p.path); path && !index.isEmpty()) {
            int matched = 0;
            const int at = index.findNearest(*path, &matched);
            const JsonTextIndex::Node &n = index.node(at);
            const bool container =
                n.kind == JsonTextIndex::Kind::Object || n.kind == JsonTextIndex::Kind::Array;
            if ((matched < path->size() || container) && n.keyStart >= 0) {
                // Missing, or a whole object: its name says where without painting a block of text.
                lp.start = n.keyStart;
                lp.end = n.keyEnd;
            } else if (matched < path->size() || container) {
                lp.start = n.start;
                lp.end = n.start + 1;
            } else {
                lp.start = n.start;
                lp.end = n.end;
            }
        }
        if (lp.start >= 0 && p.line <= 0) {
            const auto it = std::upper_bound(starts.begin(), starts.end(), lp.start);
            const size_t l = size_t(it - starts.begin()) - 1;
            lp.line = int(l) + 1;
            lp.column = lp.start - starts[l] + 1;
        }
        out.append(lp);
    }
    return out;
}

// ---------------------------------------------------------------------------------------------------------

ConfigEditor::ConfigEditor(QWidget *parent)
    : QWidget(parent), m_text(new CodeEditor(this)), m_highlighter(new JsonHighlighter(m_text->document())),
      m_form(new ConfigForm(this)), m_views(new QTabWidget(this)), m_problemList(new QListWidget(this)),
      m_problemsHeader(new QLabel(this)), m_docLabel(new QLabel(this)), m_applyLabel(new QLabel(this)),
      m_messageLabel(new QLabel(this)), m_externalBar(new QFrame(this)), m_externalText(new QLabel(this)),
      m_reloadButton(new QPushButton(tr("Reload"), this)),
      m_keepButton(new QPushButton(tr("Keep my version"), this)),
      m_applyButton(new QPushButton(tr("Apply"), this)), m_toolbar(new QToolBar(this)),
      m_validateTimer(new QTimer(this)), m_formTimer(new QTimer(this)), m_diskTimer(new QTimer(this)),
      m_watcher(new QFileSystemWatcher(this)), m_env(config::processEnvironment())
{
    setObjectName(u"configEditor"_s);
    m_validateTimer->setSingleShot(true);
    m_validateTimer->setInterval(300);
    m_formTimer->setSingleShot(true);
    m_formTimer->setInterval(0);
    // Other programs write in steps (truncate, write, rename): look once they are done.
    m_diskTimer->setSingleShot(true);
    m_diskTimer->setInterval(200);

    buildUi();

    connect(m_text->document(), &QTextDocument::contentsChanged, this, &ConfigEditor::onTextChanged);
    connect(m_text->document(), &QTextDocument::modificationChanged, this, [this] {
        updateStatus();
        emit documentStateChanged();
    });
    connect(m_text->document(), &QTextDocument::undoAvailable, m_undoAction, &QAction::setEnabled);
    connect(m_text->document(), &QTextDocument::redoAvailable, m_redoAction, &QAction::setEnabled);
    connect(m_validateTimer, &QTimer::timeout, this, &ConfigEditor::startValidation);
    connect(&m_validation, &QFutureWatcher<Validation>::finished, this, [this] {
        if (m_validation.future().resultCount() > 0)
            takeValidation(m_validation.result());
    });
    connect(m_formTimer, &QTimer::timeout, this, &ConfigEditor::refreshForm);
    connect(m_form, &ConfigForm::editRequested, this, &ConfigEditor::applyEdits);
    connect(m_watcher, &QFileSystemWatcher::fileChanged, this, &ConfigEditor::scheduleDiskCheck);
    connect(m_watcher, &QFileSystemWatcher::directoryChanged, this, &ConfigEditor::scheduleDiskCheck);
    connect(m_diskTimer, &QTimer::timeout, this, &ConfigEditor::checkDisk);

    syncActions();
    updateStatus();
    refreshForm();
    takeValidation(validate(m_generation, QString(), m_env));
}

ConfigEditor::~ConfigEditor()
{
    m_validation.waitForFinished();
}

void ConfigEditor::buildUi()
{
    auto style = QApplication::style();
    auto action = [this](const QString &text, const QKeySequence &key, const QString &tip, auto slot) {
        auto *a = new QAction(text, this);
        if (!key.isEmpty())
            a->setShortcut(key);
        a->setShortcutContext(Qt::WidgetWithChildrenShortcut);
        a->setToolTip(key.isEmpty() ? tip : tip + u" ("_s + key.toString(QKeySequence::NativeText) + u')');
        connect(a, &QAction::triggered, this, slot);
        addAction(a);
        return a;
    };
    m_openAction = action(tr("Open\u2026"), {}, tr("Open a config file, apply it and edit it here"), [this] {
        if (isSignalConnected(QMetaMethod::fromSignal(&ConfigEditor::openRequested))) {
            emit openRequested();
            return;
        }
        if (!maybeDiscard(Reason::Open))
            return;
        const QString path = chooseFile(FileRole::Open, m_path);
        if (!path.isEmpty())
            openFile(path);
    });
    m_openAction->setIcon(style->standardIcon(QStyle::SP_DialogOpenButton));
    m_importAction = action(tr("Import Bifrost\u2026"), {},
                            tr("Load a Bifrost config.json as it is, without applying it; Save As makes it a "
                               "Switchyard config"),
                            [this] { importInteractive(); });
    m_saveAction =
        action(tr("Save"), QKeySequence::Save,
               tr("Save the config (the previous version is kept as .bak; an invalid config is never "
                  "written)"),
               [this] { save(); });
    m_saveAction->setIcon(style->standardIcon(QStyle::SP_DialogSaveButton));
    m_saveAsAction = action(tr("Save As\u2026"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_S),
                            tr("Save the config under another name"), [this] { saveAsInteractive(); });
    m_exportAction =
        action(tr("Export for Bifrost\u2026"), {},
               tr("Write a Bifrost-compatible file: the same providers, without Switchyard's own "
                  "section"),
               [this] { exportInteractive(); });
    m_undoAction = action(tr("Undo"), QKeySequence::Undo, tr("Undo the last change, in the text or the form"),
                          [this] { undo(); });
    m_redoAction =
        action(tr("Redo"), QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), tr("Redo"), [this] { redo(); });
    m_redoAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::SHIFT | Qt::Key_Z), QKeySequence(Qt::CTRL | Qt::Key_Y)});
    m_reloadAction = action(tr("Reload"), {}, tr("Read the file again from disk (asks about unsaved edits)"),
                            [this] { reload(); });
    m_reloadAction->setIcon(style->standardIcon(QStyle::SP_BrowserReload));
    m_applyAction =
        action(tr("Apply"), QKeySequence(Qt::CTRL | Qt::Key_Return),
               tr("Validate and put this config into service: requests in flight finish on the old "
                  "one, nothing restarts"),
               [this] { apply(); });
    m_applyAction->setShortcuts(
        {QKeySequence(Qt::CTRL | Qt::Key_Return), QKeySequence(Qt::CTRL | Qt::Key_Enter)});
    m_undoAction->setEnabled(false);
    m_redoAction->setEnabled(false);

    m_toolbar->setObjectName(u"configToolBar"_s);
    m_toolbar->setToolButtonStyle(Qt::ToolButtonTextBesideIcon);
    m_toolbar->setIconSize(QSize(16, 16));
    m_toolbar->addAction(m_openAction);
    m_toolbar->addAction(m_importAction);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_saveAction);
    m_toolbar->addAction(m_saveAsAction);
    m_toolbar->addAction(m_exportAction);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_undoAction);
    m_toolbar->addAction(m_redoAction);
    m_toolbar->addSeparator();
    m_toolbar->addAction(m_reloadAction);
    auto *spacer = new QWidget(m_toolbar);
    spacer->setSizePolicy(QSizePolicy::Expanding, QSizePolicy::Preferred);
    m_toolbar->addWidget(spacer);
    m_applyButton->setObjectName(u"applyButton"_s);
    m_applyButton->setToolTip(m_applyAction->toolTip());
    m_applyButton->setDefault(true);
    m_applyButton->setMinimumWidth(90);
    connect(m_applyButton, &QPushButton::clicked, this, &ConfigEditor::apply);
    m_toolbar->addWidget(m_applyButton);

    // Changed on disk: a plain bar, not a modal question in the middle of typing.
    m_externalBar->setObjectName(u"externalChangeBar"_s);
    m_externalBar->setFrameShape(QFrame::StyledPanel);
    m_externalBar->setStyleSheet(
        u"QFrame#externalChangeBar { background: #fff4de; border: 1px solid #e08e00; "
        "border-radius: 4px; } QFrame#externalChangeBar QLabel { color: #4a3000; "
        "background: transparent; }"_s);
    auto *eb = new QHBoxLayout(m_externalBar);
    eb->setContentsMargins(10, 4, 4, 4);
    m_externalText->setWordWrap(true);
    m_externalText->setParent(m_externalBar);
    m_reloadButton->setObjectName(u"externalReload"_s);
    m_keepButton->setObjectName(u"externalKeep"_s);
    eb->addWidget(m_externalText, 1);
    eb->addWidget(m_reloadButton);
    eb->addWidget(m_keepButton);
    connect(m_reloadButton, &QPushButton::clicked, this, &ConfigEditor::reload);
    connect(m_keepButton, &QPushButton::clicked, this, [this] {
        // The text now differs from the file: it counts as unsaved, so it is not dropped silently later.
        if (const auto bytes = readFile(m_path))
            m_diskBytes = *bytes;
        hideExternalBar();
        m_text->document()->setModified(true);
    });
    m_externalBar->hide();

    m_text->setPlaceholderText(
        tr("No config yet. Open a config file, import a Bifrost config.json, start the "
           "demo, or type a config here."));
    m_views->setObjectName(u"configViews"_s);
    m_views->setDocumentMode(true);
    m_views->addTab(m_form, tr("Form"));
    m_views->addTab(m_text, tr("JSON"));
    connect(m_views, &QTabWidget::currentChanged, this, [this] {
        if (isFormShown() && m_formDirty)
            refreshForm();
    });

    auto *problems = new QWidget(this);
    auto *pl = new QVBoxLayout(problems);
    pl->setContentsMargins(0, 4, 0, 0);
    pl->setSpacing(2);
    m_problemsHeader->setObjectName(u"problemsHeader"_s);
    m_problemList->setObjectName(u"problemList"_s);
    m_problemList->setAlternatingRowColors(true);
    m_problemList->setWordWrap(true);
    m_problemList->setToolTip(tr("Click a problem to go to it in the text."));
    pl->addWidget(m_problemsHeader);
    pl->addWidget(m_problemList, 1);
    connect(m_problemList, &QListWidget::itemClicked, this,
            [this](QListWidgetItem *item) { goToProblem(m_problemList->row(item)); });
    connect(m_problemList, &QListWidget::itemActivated, this,
            [this](QListWidgetItem *item) { goToProblem(m_problemList->row(item)); });

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_views);
    split->addWidget(problems);
    split->setStretchFactor(0, 4);
    split->setStretchFactor(1, 1);
    split->setChildrenCollapsible(false);

    m_docLabel->setObjectName(u"documentLabel"_s);
    m_docLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_applyLabel->setObjectName(u"applyLabel"_s);
    m_messageLabel->setObjectName(u"editorMessage"_s);
    m_messageLabel->setWordWrap(true);
    m_messageLabel->setTextInteractionFlags(Qt::TextSelectableByMouse);
    m_messageLabel->hide();

    auto *status = new QHBoxLayout;
    status->addWidget(m_docLabel, 1);
    status->addWidget(m_applyLabel);

    auto *l = new QVBoxLayout(this);
    l->setContentsMargins(4, 2, 4, 4);
    l->setSpacing(4);
    l->addWidget(m_toolbar);
    l->addWidget(m_externalBar);
    l->addWidget(m_messageLabel);
    l->addWidget(split, 1);
    l->addLayout(status);
}

void ConfigEditor::setApplier(Applier applier)
{
    m_applier = std::move(applier);
    syncActions();
}

void ConfigEditor::setEnvironment(config::EnvLookup env)
{
    m_env = std::move(env);
    validateNow();
}

void ConfigEditor::setUnsavedPrompt(UnsavedPrompt prompt)
{
    m_prompt = std::move(prompt);
}

void ConfigEditor::setFileChooser(FileChooser chooser)
{
    m_chooser = std::move(chooser);
}

void ConfigEditor::setValidationDelay(int ms)
{
    m_validateTimer->setInterval(std::max(0, ms));
}

// --- the document
// -------------------------------------------------------------------------------------------

QString ConfigEditor::text() const
{
    // toRawText keeps the characters as typed (toPlainText would turn non-breaking spaces into spaces);
    // only the block separators become line breaks again.
    QString t = m_text->document()->toRawText();
    t.replace(QChar::ParagraphSeparator, u'\n');
    return t;
}

QString ConfigEditor::documentName() const
{
    if (!m_path.isEmpty())
        return QFileInfo(m_path).fileName();
    return m_untitledName.isEmpty() ? tr("new config") : m_untitledName;
}

bool ConfigEditor::isModified() const
{
    return m_text->document()->isModified();
}

void ConfigEditor::loadText(const QString &text, bool undoable)
{
    m_loading = true;
    if (undoable) {
        // One step of Undo brings the previous text back.
        QTextCursor c(m_text->document());
        c.beginEditBlock();
        c.select(QTextCursor::Document);
        c.insertText(text);
        c.endEditBlock();
    } else {
        m_text->setPlainText(text);
    }
    m_text->document()->setModified(false);
    m_loading = false;
}

Expected<QByteArray, QString> ConfigEditor::openFile(const QString &path)
{
    const auto bytes = readFile(path);
    if (!bytes) {
        setMessage(tr("Could not open %1: %2").arg(path, bytes.error()), true);
        return bytes;
    }
    m_path = QFileInfo(path).absoluteFilePath();
    m_untitledName.clear();
    m_diskBytes = *bytes;
    m_diskMissing = false;
    m_bom = bytes->startsWith(Bom);
    QString t = QString::fromUtf8(m_bom ? bytes->mid(Bom.size()) : *bytes);
    m_crlf = t.contains(u"\r\n"_s);
    t.replace(u"\r\n"_s, u"\n"_s);
    m_hasApplied = false;
    loadText(t, false);
    watch(m_path);
    hideExternalBar();
    setMessage({}, false);
    validateNow();
    refreshForm();
    emit documentStateChanged();
    return bytes;
}

void ConfigEditor::setUntitledText(const QString &text, const QString &sourceName)
{
    m_path.clear();
    m_untitledName = sourceName;
    m_diskBytes.clear();
    m_diskMissing = false;
    m_bom = false;
    m_crlf = false;
    m_hasApplied = false;
    watch({});
    hideExternalBar();
    loadText(text, false);
    setMessage({}, false);
    validateNow();
    refreshForm();
    emit documentStateChanged();
}

void ConfigEditor::markApplied()
{
    m_appliedText = text();
    m_hasApplied = true;
    syncActions();
    updateStatus();
}

// --- validation
// ---------------------------------------------------------------------------------------------

ConfigEditor::Validation ConfigEditor::validate(quint64 generation, const QString &text,
                                                const config::EnvLookup &env)
{
    Validation v;
    v.generation = generation;
    v.text = text;
    QElapsedTimer timer;
    timer.start();
    if (!text.trimmed().isEmpty()) {
        auto parsed = config::parseConfig(text.toUtf8(), env);
        if (parsed)
            v.config = std::move(*parsed);
        else
            v.problems = parsed.error();
    }
    v.micros = timer.nsecsElapsed() / 1000;
    return v;
}

void ConfigEditor::onTextChanged()
{
    // contentsChanged also fires for formatting (the highlighter): only a different text counts.
    QString now = text();
    if (now == m_lastText)
        return;
    m_lastText = std::move(now);
    ++m_generation;
    m_formDirty = true;
    if (!m_loading) {
        m_validateTimer->start();
        if (isFormShown())
            m_formTimer->start();
    }
    syncActions();
    updateStatus();
}

void ConfigEditor::startValidation()
{
    // On a worker thread: a large paste never stalls typing. The result is dropped if the text has changed
    // again by the time it arrives.
    m_validation.setFuture(QtConcurrent::run(&ConfigEditor::validate, m_generation, text(), m_env));
    m_problemsHeader->setText(tr("Checking\u2026"));
}

void ConfigEditor::validateNow()
{
    m_validateTimer->stop();
    takeValidation(validate(m_generation, text(), m_env));
}

bool ConfigEditor::isValidationPending() const
{
    return m_validatedGeneration != m_generation;
}

void ConfigEditor::takeValidation(const Validation &v)
{
    if (v.generation != m_generation)
        return; // the text has changed since: a newer validation is on its way
    m_validatedGeneration = v.generation;
    m_valid = v.config.has_value();
    m_validationMicros = v.micros;
    m_problems = locateProblems(v.problems, v.text);

    m_problemList->clear();
    QList<CodeEditor::Marker> markers;
    const QIcon icon = QApplication::style()->standardIcon(QStyle::SP_MessageBoxWarning);
    for (const LocatedProblem &p : std::as_const(m_problems)) {
        auto *item = new QListWidgetItem(icon, p.text(), m_problemList);
        item->setData(ProblemStartRole, p.start);
        item->setData(ProblemEndRole, p.end);
        item->setToolTip(p.problem.toString());
        if (p.start >= 0)
            markers.append({p.start, p.end, p.text()});
    }
    m_text->setMarkers(markers);
    m_problemsHeader->setText(problemsHeader());
    m_problemsHeader->setStyleSheet(m_problems.isEmpty() ? u"color: #1a7f37;"_s : u"color: #c62828;"_s);
    // The form marks the same problems.
    m_formDirty = true;
    if (isFormShown())
        refreshForm();
    syncActions();
    updateStatus();
    emit validated();
}

QString ConfigEditor::problemsHeader() const
{
    if (isValidationPending())
        return tr("Checking\u2026");
    if (text().trimmed().isEmpty())
        return tr("No config yet.");
    if (m_problems.isEmpty())
        return tr("\u2714 No problems: ready to apply.");
    return tr("Problems: %1. Apply waits until they are fixed; the running configuration stays.")
        .arg(m_problems.size());
}

// --- views
// --------------------------------------------------------------------------------------------------

void ConfigEditor::showForm()
{
    m_views->setCurrentWidget(m_form);
}

void ConfigEditor::showText()
{
    m_views->setCurrentWidget(m_text);
}

bool ConfigEditor::isFormShown() const
{
    return m_views->currentWidget() == m_form;
}

void ConfigEditor::refreshForm()
{
    m_formTimer->stop();
    const QString t = text();
    const JsonTextIndex index = JsonTextIndex::build(t);
    const FormData form = readForm(index);
    QString why;
    if (!form.readable) {
        if (t.trimmed().isEmpty()) {
            why = tr("No config yet. Open a config file, import a Bifrost config.json or start the demo; the "
                     "providers appear here.");
        } else if (!index.isComplete()) {
            const int at = std::clamp(index.errorOffset(), 0, int(t.size()));
            const int line = int(QStringView(t).first(at).count(u'\n')) + 1;
            const int column = at - int(QStringView(t).first(at).lastIndexOf(u'\n'));
            why = tr("The text is not valid JSON (line %1, column %2), so the form cannot show it. Fix it in "
                     "the "
                     "JSON view; the form comes back as soon as the text reads.")
                      .arg(line)
                      .arg(column);
        } else {
            why = tr("The config must be a JSON object ({ \u2026 }) at the top level.");
        }
    }
    config::ConfigProblems problems;
    for (const LocatedProblem &p : std::as_const(m_problems))
        problems << p.problem;
    m_form->setForm(form, problems, why);
    m_formDirty = false;
}

void ConfigEditor::goToProblem(int row)
{
    if (row < 0 || row >= m_problems.size())
        return;
    const LocatedProblem &p = m_problems[row];
    showText();
    if (p.start >= 0)
        m_text->goTo(p.start, p.end);
    else
        m_text->setFocus();
}

bool ConfigEditor::applyEdits(const QList<JsonEdit> &edits)
{
    QTextDocument *doc = m_text->document();
    QTextCursor c(doc);
    bool ok = true;
    bool changed = false;
    c.beginEditBlock();
    for (const JsonEdit &e : edits) {
        const QString t = text();
        const JsonTextIndex index = JsonTextIndex::build(t);
        const auto change = resolveEdit(index, t, e);
        if (!change) {
            ok = false;
            break;
        }
        if (change->start == change->end && change->text.isEmpty())
            continue;
        c.setPosition(change->start);
        c.setPosition(change->end, QTextCursor::KeepAnchor);
        c.insertText(change->text);
        changed = true;
    }
    c.endEditBlock();
    if (!ok) {
        if (changed)
            doc->undo(); // all or nothing: the block is one step
        setMessage(tr("That change cannot be made in the text as it is; edit it in the JSON view."), true);
        return false;
    }
    if (changed)
        m_formTimer->start();
    return true;
}

void ConfigEditor::undo()
{
    m_text->undo();
}

void ConfigEditor::redo()
{
    m_text->redo();
}

// --- apply
// --------------------------------------------------------------------------------------------------

QString ConfigEditor::applySource() const
{
    if (!m_path.isEmpty())
        return isModified() ? tr("%1 (unsaved edits)").arg(m_path) : m_path;
    const QString name = m_untitledName.isEmpty() ? tr("new config") : m_untitledName;
    return isModified() ? tr("%1 (edited)").arg(name) : name;
}

bool ConfigEditor::apply()
{
    if (!m_applier) {
        setMessage(tr("Not applied: there is no gateway to apply it to."), true);
        return false;
    }
    // Exactly what is shown, validated now: the debounced result may be a keystroke old.
    m_validateTimer->stop();
    const QString t = text();
    const Validation v = validate(m_generation, t, m_env);
    takeValidation(v);
    if (!v.config) {
        setMessage(
            t.trimmed().isEmpty()
                ? tr("Not applied: there is no config.")
                : tr("Not applied: the config has problems (%1, listed below). The running configuration "
                     "stays.")
                      .arg(v.problems.size()),
            true);
        return false;
    }
    const Gateway::ApplyResult result = m_applier(*v.config, applySource());
    m_appliedText = t;
    m_hasApplied = true;
    const QString changes = result.changes.isEmpty() ? tr("no changes") : result.changes.summary();
    const QString time = QDateTime::currentDateTime().toString(u"HH:mm:ss"_s);
    m_applySummary = changes;
    if (!result.listenError.isEmpty())
        setMessage(
            tr("Applied at %1: %2. The new listen address cannot be used (%3); the gateway keeps its old "
               "one.")
                .arg(time, changes, result.listenError),
            true);
    else
        setMessage(tr("Applied at %1: %2.").arg(time, changes), false);
    syncActions();
    updateStatus();
    emit applied(result);
    return true;
}

// --- save, export, import, reload
// ---------------------------------------------------------------------------

QByteArray ConfigEditor::fileBytes(const QString &text) const
{
    QString t = text;
    if (m_crlf)
        t.replace(u"\n"_s, u"\r\n"_s);
    QByteArray bytes = t.toUtf8();
    if (m_bom)
        bytes.prepend(Bom);
    return bytes;
}

bool ConfigEditor::writeFile(const QString &path, const QByteArray &bytes, bool backup, QString *error)
{
    const QFileInfo info(path);
    if (info.isDir()) {
        *error = tr("it is a directory");
        return false;
    }
    if (info.exists()) {
        QFile old(path);
        if (!old.open(QIODevice::ReadOnly)) {
            *error = tr("the current file cannot be read to back it up: %1").arg(old.errorString());
            return false;
        }
        const QByteArray previous = old.readAll();
        if (previous == bytes)
            return true; // nothing to write, and the backup keeps the version before
        if (backup) {
            // The backup first, itself atomic: a crash leaves either the old backup or the new one.
            const QString bakPath = path + u".bak"_s;
            QSaveFile bak(bakPath);
            if (!bak.open(QIODevice::WriteOnly) || bak.write(previous) != previous.size() || !bak.commit()) {
                *error = tr("the backup %1 cannot be written: %2").arg(bakPath, bak.errorString());
                return false;
            }
            QFile::setPermissions(bakPath, old.permissions()); // a config holding secrets stays private
        }
    }
    QSaveFile f(path);
    if (!f.open(QIODevice::WriteOnly)) {
        *error = f.errorString();
        return false;
    }
    if (f.write(bytes) != bytes.size()) {
        *error = f.errorString();
        f.cancelWriting();
        return false;
    }
    if (!f.commit()) {
        *error = f.errorString();
        return false;
    }
    return true;
}

bool ConfigEditor::save()
{
    if (m_path.isEmpty())
        return saveAsInteractive();
    return saveAs(m_path);
}

bool ConfigEditor::saveAs(const QString &path)
{
    const QString t = text();
    // Never write a config the gateway would refuse. Environment references need not resolve here: the
    // variables belong to wherever the file is used.
    const config::EnvLookup anyVariable = [](const QString &) -> std::optional<QString> { return u"set"_s; };
    const auto parsed = config::parseConfig(t.toUtf8(), anyVariable);
    const QString target = QFileInfo(path).absoluteFilePath();
    if (t.trimmed().isEmpty() || !parsed) {
        validateNow();
        setMessage(t.trimmed().isEmpty()
                       ? tr("Not saved: there is no config.")
                       : tr("Not saved: the config has problems (%1, listed below); %2 is unchanged.")
                             .arg(parsed.error().size())
                             .arg(target),
                   true);
        return false;
    }
    const QByteArray bytes = fileBytes(t);
    QString error;
    if (!writeFile(target, bytes, true, &error)) {
        setMessage(tr("Not saved: %1: %2").arg(target, error), true);
        return false;
    }
    m_path = target;
    m_untitledName.clear();
    m_diskBytes = bytes;
    m_diskMissing = false;
    m_text->document()->setModified(false);
    watch(m_path);
    hideExternalBar();
    const QString bak = m_path + u".bak"_s;
    setMessage(QFileInfo::exists(bak) ? tr("Saved %1 (the previous version is %2).").arg(m_path, bak)
                                      : tr("Saved %1.").arg(m_path),
               false);
    updateStatus();
    emit fileSaved(m_path);
    emit documentStateChanged();
    return true;
}

bool ConfigEditor::saveAsInteractive()
{
    const QString suggestion = m_path.isEmpty() ? QDir::home().filePath(u"switchyard.json"_s) : m_path;
    const QString path = chooseFile(FileRole::SaveAs, suggestion);
    return !path.isEmpty() && saveAs(path);
}

bool ConfigEditor::exportBifrost(const QString &path)
{
    const auto exported = config::exportBifrostConfig(text().toUtf8());
    if (!exported) {
        QStringList lines;
        for (const config::ConfigProblem &p : exported.error())
            lines << p.toString();
        setMessage(tr("Not exported: %1").arg(lines.join(u"; "_s)), true);
        return false;
    }
    QString error;
    const QString target = QFileInfo(path).absoluteFilePath();
    if (!writeFile(target, *exported, true, &error)) {
        setMessage(tr("Not exported: %1: %2").arg(target, error), true);
        return false;
    }
    setMessage(
        tr("Exported for Bifrost to %1 (without the \"switchyard\" section; env.NAME references kept).")
            .arg(target),
        false);
    return true;
}

bool ConfigEditor::exportInteractive()
{
    const QString dir = m_path.isEmpty() ? QDir::homePath() : QFileInfo(m_path).absolutePath();
    const QString path = chooseFile(FileRole::ExportBifrost, QDir(dir).filePath(u"config.json"_s));
    return !path.isEmpty() && exportBifrost(path);
}

bool ConfigEditor::importBifrost(const QString &path)
{
    const auto bytes = readFile(path);
    if (!bytes) {
        setMessage(tr("Could not import %1: %2").arg(path, bytes.error()), true);
        return false;
    }
    // As it is: Bifrost's providers section is Switchyard's, and the sections only Bifrost uses are kept in
    // the text (the loader ignores them). Untitled, so Save never writes over the Bifrost deployment's file.
    const bool bom = bytes->startsWith(Bom);
    QString t = QString::fromUtf8(bom ? bytes->mid(Bom.size()) : *bytes);
    const bool crlf = t.contains(u"\r\n"_s);
    t.replace(u"\r\n"_s, u"\n"_s);
    setUntitledText(t, tr("imported from %1").arg(QFileInfo(path).fileName()));
    m_bom = bom;
    m_crlf = crlf;
    m_text->document()->setModified(true); // not saved anywhere as a Switchyard config yet
    const JsonTextIndex index = JsonTextIndex::build(t);
    const FormData form = readForm(index);
    setMessage(m_valid ? tr("Imported %1 (providers: %2). Apply puts it into service; Save As keeps it as a "
                            "Switchyard config.")
                             .arg(QFileInfo(path).absoluteFilePath())
                             .arg(form.providers.size())
                       : tr("Imported %1; it has problems to fix before it can be applied (listed below).")
                             .arg(QFileInfo(path).absoluteFilePath()),
               !m_valid);
    return true;
}

bool ConfigEditor::importInteractive()
{
    if (!maybeDiscard(Reason::Import))
        return false;
    const QString path = chooseFile(FileRole::Import, QDir::homePath());
    return !path.isEmpty() && importBifrost(path);
}

bool ConfigEditor::reload()
{
    if (m_path.isEmpty())
        return false;
    if (!maybeDiscard(Reason::Reload))
        return false;
    const auto bytes = readFile(m_path);
    if (!bytes) {
        setMessage(tr("Could not reload %1: %2").arg(m_path, bytes.error()), true);
        return false;
    }
    m_diskBytes = *bytes;
    m_diskMissing = false;
    m_bom = bytes->startsWith(Bom);
    QString t = QString::fromUtf8(m_bom ? bytes->mid(Bom.size()) : *bytes);
    m_crlf = t.contains(u"\r\n"_s);
    t.replace(u"\r\n"_s, u"\n"_s);
    loadText(t, true);
    watch(m_path);
    hideExternalBar();
    validateNow();
    refreshForm();
    setMessage(tr("Reloaded %1 from disk (Undo brings the previous text back). Apply puts it into service.")
                   .arg(m_path),
               false);
    emit documentStateChanged();
    return true;
}

ConfigEditor::Choice ConfigEditor::askUnsaved(Reason reason)
{
    if (m_prompt)
        return m_prompt(reason, documentName());
    QMessageBox box(this);
    box.setObjectName(u"unsavedQuestion"_s);
    box.setIcon(QMessageBox::Question);
    box.setWindowTitle(tr("Unsaved config edits"));
    if (reason == Reason::Reload) {
        box.setText(
            tr("Reloading replaces your unsaved edits to %1 with the file on disk.").arg(documentName()));
        box.setInformativeText(tr("Undo brings them back afterwards."));
        QPushButton *reloadButton = box.addButton(tr("Reload"), QMessageBox::DestructiveRole);
        box.addButton(QMessageBox::Cancel);
        box.setDefaultButton(QMessageBox::Cancel);
        box.exec();
        return box.clickedButton() == reloadButton ? Choice::Discard : Choice::Cancel;
    }
    box.setText(tr("%1 has unsaved edits.").arg(documentName()));
    box.setInformativeText(reason == Reason::Close ? tr("Save them before quitting?")
                                                   : tr("Save them before opening another config?"));
    box.setStandardButtons(QMessageBox::Save | QMessageBox::Discard | QMessageBox::Cancel);
    box.setDefaultButton(QMessageBox::Save);
    switch (box.exec()) {
    case QMessageBox::Save:
        return Choice::Save;
    case QMessageBox::Discard:
        return Choice::Discard;
    default:
        return Choice::Cancel;
    }
}

bool ConfigEditor::maybeDiscard(Reason reason)
{
    if (!isModified())
        return true;
    switch (askUnsaved(reason)) {
    case Choice::Save:
        return save();
    case Choice::Discard:
        return true;
    case Choice::Cancel:
        return false;
    }
    return false;
}

QString ConfigEditor::chooseFile(FileRole role, const QString &suggestion)
{
    if (m_chooser)
        return m_chooser(role, suggestion);
    const QString filter = tr("Config files (*.json);;All files (*)");
    switch (role) {
    case FileRole::Open:
        return QFileDialog::getOpenFileName(this, tr("Open a config file"), suggestion, filter);
    case FileRole::Import:
        return QFileDialog::getOpenFileName(this, tr("Import a Bifrost config.json"), suggestion, filter);
    case FileRole::SaveAs:
        return QFileDialog::getSaveFileName(this, tr("Save the config as"), suggestion, filter);
    case FileRole::ExportBifrost:
        return QFileDialog::getSaveFileName(this, tr("Export a Bifrost config"), suggestion, filter);
    }
    return {};
}

// --- changes on disk
// ----------------------------------------------------------------------------------------

void ConfigEditor::watch(const QString &path)
{
    if (!m_watcher->files().isEmpty())
        m_watcher->removePaths(m_watcher->files());
    if (!m_watcher->directories().isEmpty())
        m_watcher->removePaths(m_watcher->directories());
    if (path.isEmpty())
        return;
    // The directory too: a program that saves by writing a new file and renaming it over this one replaces
    // the watched file, and inotify then stops reporting it. The directory sees the new file arrive.
    m_watcher->addPath(QFileInfo(path).absolutePath());
    if (QFileInfo::exists(path))
        m_watcher->addPath(path);
}

void ConfigEditor::scheduleDiskCheck()
{
    if (!m_path.isEmpty())
        m_diskTimer->start();
}

void ConfigEditor::checkDisk()
{
    if (m_path.isEmpty())
        return;
    const bool exists = QFileInfo::exists(m_path);
    if (exists && !m_watcher->files().contains(m_path))
        m_watcher->addPath(m_path); // the file was replaced (atomic rename): watch the new one
    if (!exists) {
        if (!m_diskMissing) {
            m_diskMissing = true;
            m_text->document()->setModified(true); // only here now: closing must not drop it silently
            showExternalBar(
                tr("%1 is no longer on disk (deleted or renamed by another program). Save writes it "
                   "again.")
                    .arg(m_path),
                false);
            emit externalChangeDetected(m_path);
        }
        return;
    }
    const auto bytes = readFile(m_path);
    if (!bytes || *bytes == m_diskBytes) {
        if (bytes && m_diskMissing) {
            m_diskMissing = false;
            hideExternalBar();
        }
        return; // a save of our own, a touch, or a change in another file of the directory
    }
    m_diskMissing = false;
    showExternalBar(isModified()
                        ? tr("%1 was changed by another program, and you have unsaved edits here. Reload "
                             "asks first; Keep my version keeps the text as it is here.")
                              .arg(m_path)
                        : tr("%1 was changed by another program.").arg(m_path),
                    true);
    emit externalChangeDetected(m_path);
}

void ConfigEditor::showExternalBar(const QString &text, bool offerReload)
{
    m_externalText->setText(text);
    m_reloadButton->setVisible(offerReload);
    m_keepButton->setVisible(true);
    m_keepButton->setText(offerReload ? tr("Keep my version") : tr("Dismiss"));
    m_externalBar->show();
}

void ConfigEditor::hideExternalBar()
{
    m_externalBar->hide();
    m_externalText->clear();
}

QString ConfigEditor::externalChangeText() const
{
    return m_externalBar->isHidden() ? QString() : m_externalText->text();
}

bool ConfigEditor::externalChangePending() const
{
    return !m_externalBar->isHidden();
}

// --- state
// --------------------------------------------------------------------------------------------------

void ConfigEditor::syncActions()
{
    const bool hasText = !m_text->document()->isEmpty();
    // Disabled while the last verdict is "invalid" and nothing has changed since; apply() checks again
    // anyway.
    const bool applicable = m_applier && hasText && (isValidationPending() || m_valid);
    m_applyAction->setEnabled(applicable);
    m_applyButton->setEnabled(applicable);
    // "Applied" only when the gateway runs exactly this (valid) text.
    const bool running = applicable && !isValidationPending() && m_hasApplied && m_appliedText == text();
    m_applyButton->setText(running ? tr("Applied") : tr("Apply"));
    m_applyButton->setToolTip(!m_applier    ? tr("No gateway to apply to.")
                              : !hasText    ? tr("No config to apply.")
                              : !applicable ? tr("Fix the problems listed below first.")
                                            : m_applyAction->toolTip());
    m_saveAction->setEnabled(hasText);
    m_saveAsAction->setEnabled(hasText);
    m_exportAction->setEnabled(hasText);
    m_reloadAction->setEnabled(!m_path.isEmpty());
}

void ConfigEditor::updateStatus()
{
    QString doc =
        m_path.isEmpty() ? tr("%1 (not a file yet: Save As writes one)").arg(documentName()) : m_path;
    if (isModified())
        doc += u" \u2014 "_s + tr("unsaved edits");
    m_docLabel->setText(doc);
    QString applied;
    if (!m_hasApplied)
        applied = tr("not applied");
    else if (m_appliedText == text())
        applied = tr("the gateway runs this config");
    else
        applied = tr("edited since it was applied");
    m_applyLabel->setText(applied);
}

QString ConfigEditor::statusText() const
{
    QStringList parts{m_docLabel->text(), m_applyLabel->text()};
    if (!m_message.isEmpty())
        parts << m_message;
    return parts.join(u" | "_s);
}

void ConfigEditor::setMessage(const QString &text, bool error)
{
    m_message = text;
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
    m_messageLabel->setStyleSheet(error ? u"color: #c62828;"_s : u"color: #1a7f37;"_s);
}

} // namespace switchyard::ui
