#include "configeditor.h"

#include "codeeditor.h"
#include "configeditoractions.h"
#include "configeditorprompts.h"
#include "configform.h"
#include "externalchangebar.h"
#include "jsonhighlighter.h"
#include "problemspane.h"

#include <QAction>
#include <QDateTime>
#include <QDir>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QLabel>
#include <QMetaMethod>
#include <QPushButton>
#include <QSplitter>
#include <QTabWidget>
#include <QTextBlock>
#include <QTimer>
#include <QToolBar>
#include <QVBoxLayout>

#include <algorithm>

using namespace Qt::Literals::StringLiterals;

namespace switchyard::ui {

ConfigEditor::ConfigEditor(QWidget *parent) : ConfigEditor(nullptr, parent) {}

ConfigEditor::ConfigEditor(config::ConfigController *controller, QWidget *parent)
    : QWidget(parent), m_controller(controller ? controller : new config::ConfigController(nullptr, this)),
      m_validator(new ConfigValidator(this)), m_text(new CodeEditor(this)),
      m_highlighter(new JsonHighlighter(m_text->document())), m_form(new ConfigForm(this)),
      m_views(new QTabWidget(this)),
      m_problemsPane(new ProblemsPane(tr("Click a problem to go to it in the text."), this)),
      m_docLabel(new QLabel(this)), m_applyLabel(new QLabel(this)), m_messageLabel(new QLabel(this)),
      m_externalBar(new ExternalChangeBar(tr("Reload"), this)),
      m_applyButton(new QPushButton(tr("Apply"), this)), m_formTimer(new QTimer(this))
{
    setObjectName(u"configEditor"_s);
    m_formTimer->setSingleShot(true);
    m_formTimer->setInterval(0);

    buildUi();

    connect(m_text->document(), &QTextDocument::contentsChanged, this, &ConfigEditor::onTextChanged);
    connect(m_text->document(), &QTextDocument::modificationChanged, this, [this] {
        updateStatus();
        emit documentStateChanged();
    });
    connect(m_text->document(), &QTextDocument::undoAvailable, m_actions.undo, &QAction::setEnabled);
    connect(m_text->document(), &QTextDocument::redoAvailable, m_actions.redo, &QAction::setEnabled);
    connect(m_validator, &ConfigValidator::started, this,
            [this] { m_problemsPane->setHeader(tr("Checking\u2026")); });
    connect(m_problemsPane, &ProblemsPane::problemActivated, this, &ConfigEditor::goToProblem);
    connect(m_validator, &ConfigValidator::finished, this, &ConfigEditor::takeValidation);
    connect(m_formTimer, &QTimer::timeout, this, &ConfigEditor::refreshForm);
    connect(m_form, &ConfigForm::editRequested, this, &ConfigEditor::applyEdits);
    connect(m_controller, &config::ConfigController::fileChanged, this, &ConfigEditor::onFileChanged);
    connect(m_controller, &config::ConfigController::fileMissing, this, &ConfigEditor::onFileMissing);
    connect(m_controller, &config::ConfigController::fileRestored, m_externalBar,
            &ExternalChangeBar::dismiss);
    connect(m_externalBar, &ExternalChangeBar::reloadClicked, this, &ConfigEditor::reload);
    connect(m_externalBar, &ExternalChangeBar::keepClicked, this, &ConfigEditor::keepMyVersion);

    syncActions();
    updateStatus();
    refreshForm();
    takeValidation(m_validator->validateNow(QString()));
}

ConfigEditor::~ConfigEditor() = default;

void ConfigEditor::connectActions()
{
    connect(m_actions.open, &QAction::triggered, this, [this] {
        if (isSignalConnected(QMetaMethod::fromSignal(&ConfigEditor::openRequested))) {
            emit openRequested();
            return;
        }
        if (!maybeDiscard(Reason::Open))
            return;
        const QString path = chooseFile(FileRole::Open, filePath());
        if (!path.isEmpty())
            openFile(path);
    });
    connect(m_actions.import, &QAction::triggered, this, &ConfigEditor::importInteractive);
    connect(m_actions.save, &QAction::triggered, this, &ConfigEditor::save);
    connect(m_actions.saveAs, &QAction::triggered, this, &ConfigEditor::saveAsInteractive);
    connect(m_actions.exportBifrost, &QAction::triggered, this, &ConfigEditor::exportInteractive);
    connect(m_actions.undo, &QAction::triggered, this, &ConfigEditor::undo);
    connect(m_actions.redo, &QAction::triggered, this, &ConfigEditor::redo);
    connect(m_actions.reload, &QAction::triggered, this, &ConfigEditor::reload);
    connect(m_actions.apply, &QAction::triggered, this, &ConfigEditor::apply);
    connect(m_applyButton, &QPushButton::clicked, this, &ConfigEditor::apply);
}

void ConfigEditor::buildUi()
{
    m_actions = ConfigEditorActions::create(this);
    connectActions();
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

    auto *split = new QSplitter(Qt::Vertical, this);
    split->addWidget(m_views);
    split->addWidget(m_problemsPane);
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
    l->addWidget(m_actions.buildToolBar(this, m_applyButton));
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
    m_validator->setEnvironment(std::move(env));
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
    m_validator->setDelay(ms);
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
    if (!isUntitled())
        return QFileInfo(filePath()).fileName();
    return m_untitledName.isEmpty() ? tr("new config") : m_untitledName;
}

bool ConfigEditor::isModified() const
{
    return m_text->document()->isModified();
}

void ConfigEditor::loadText(const QString &rawText, bool undoable)
{
    // Literal secrets are shown masked (the form shows them as dots); the real values stay in m_secrets
    // and go back wherever the mask still stands when the text is saved, applied or checked.
    const QString text = m_secrets.mask(rawText);
    m_validator->setSecrets(m_secrets, !m_textApplier);
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

void ConfigEditor::showFileText(const QByteArray &bytes, bool undoable)
{
    const config::ConfigFileText file = config::ConfigFileText::decode(bytes);
    m_bom = file.bom;
    m_crlf = file.crlf;
    loadText(file.text, undoable);
}

QString ConfigEditor::unmaskedText() const
{
    return m_secrets.unmask(text());
}

QByteArray ConfigEditor::fileBytes() const
{
    return config::ConfigFileText{unmaskedText(), m_bom, m_crlf}.encode();
}

Expected<QByteArray, QString> ConfigEditor::openFile(const QString &path)
{
    const auto bytes = m_controller->openFile(path);
    if (!bytes) {
        const QString why = fileErrorText(bytes.error());
        setMessage(tr("Could not open %1: %2").arg(path, why), true);
        return unexpected(why);
    }
    m_untitledName.clear();
    m_hasApplied = false;
    m_secrets.clear(); // another file: none of the last one's secrets belong in it
    showFileText(*bytes, false);
    m_externalBar->dismiss();
    setMessage({}, false);
    validateNow();
    refreshForm();
    emit documentStateChanged();
    return *bytes;
}

void ConfigEditor::setUntitledText(const QString &text, const QString &sourceName)
{
    m_controller->closeFile();
    m_untitledName = sourceName;
    m_bom = false;
    m_crlf = false;
    m_hasApplied = false;
    m_externalBar->dismiss();
    m_secrets.clear();
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

void ConfigEditor::onTextChanged()
{
    // contentsChanged also fires for formatting (the highlighter): only a different text counts.
    QString now = text();
    if (now == m_lastText)
        return;
    m_lastText = std::move(now);
    m_validator->textChanged(m_lastText, !m_loading);
    m_formDirty = true;
    if (!m_loading && isFormShown())
        m_formTimer->start();
    syncActions();
    updateStatus();
}

void ConfigEditor::validateNow()
{
    takeValidation(m_validator->validateNow(text()));
}

void ConfigEditor::takeValidation(const ConfigValidator::Result &v)
{
    m_valid = v.validation.config.has_value();
    m_validationMicros = v.validation.micros;
    m_problems = locateProblems(v.validation.problems, v.text);
    QList<CodeEditor::Marker> markers;
    for (const LocatedProblem &p : std::as_const(m_problems)) {
        if (p.start >= 0)
            markers.append({p.start, p.end, p.text()});
    }
    m_text->setMarkers(markers);
    m_problemsPane->showProblems(m_problems, problemsHeader());
    // The form marks the same problems.
    m_formDirty = true;
    if (isFormShown())
        refreshForm();
    syncActions();
    updateStatus();
    emit validated();
}

QListWidget *ConfigEditor::problemList() const
{
    return m_problemsPane->list();
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
            // The loader's verdict, word for word as the problem list shows it: one place, one format. The
            // scanner's own position stands in only while the check of this text is still running.
            QString where;
            for (const LocatedProblem &p : std::as_const(m_problems)) {
                if (!isValidationPending() && p.problem.line > 0) {
                    where = p.text();
                    break;
                }
            }
            if (where.isEmpty()) {
                const int at = std::clamp(index.errorOffset(), 0, int(t.size()));
                const int line = int(QStringView(t).first(at).count(u'\n')) + 1;
                const int column = at - int(QStringView(t).first(at).lastIndexOf(u'\n'));
                where = u"%1:%2  %3"_s.arg(line).arg(column).arg(index.errorMessage());
            }
            why = tr("The text is not valid JSON, so the form cannot show it:\n\n%1\n\nFix it in the JSON view (the "
                     "problem list below goes there); the form comes back as soon as the text reads.")
                      .arg(where);
        } else {
            why = tr("The config must be a JSON object ({ \u2026 }) at the top level.");
        }
    }
    config::ConfigProblems problems;
    for (const LocatedProblem &p : std::as_const(m_problems))
        problems << p.problem;
    const Gateway *gateway = m_controller->gateway();
    m_form->setListenOverride(m_controller->listenOverride(),
                              gateway && gateway->isRunning() ? gateway->listenUrl() : QString());
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
    if (!isUntitled())
        return isModified() ? tr("%1 (unsaved edits)").arg(filePath()) : filePath();
    const QString name = m_untitledName.isEmpty() ? tr("new config") : m_untitledName;
    return isModified() ? tr("%1 (edited)").arg(name) : name;
}

void ConfigEditor::setTextApplier(TextApplier applier)
{
    m_textApplier = std::move(applier);
    m_validator->setSecrets(m_secrets, !m_textApplier);
    syncActions();
}

void ConfigEditor::finishApply(bool applied, const QString &message)
{
    if (!m_applyPending)
        return;
    m_applyPending = false;
    const QString time = QDateTime::currentDateTime().toString(u"HH:mm:ss"_s);
    if (applied) {
        m_appliedText = m_pendingText;
        m_hasApplied = true;
        m_applySummary = message;
        setMessage(tr("Applied at %1: %2.").arg(time, message), false);
    } else {
        setMessage(tr("Not applied (%1): %2").arg(time, message), true);
    }
    syncActions();
    updateStatus();
}

bool ConfigEditor::apply()
{
    if (!m_applier && !m_textApplier) {
        setMessage(tr("Not applied: there is no gateway to apply it to."), true);
        return false;
    }
    // Exactly what is shown, validated now: the debounced result may be a keystroke old.
    const QString t = text();
    const ConfigValidator::Result v = m_validator->validateNow(t);
    takeValidation(v);
    if (!v.validation.config) {
        setMessage(
            t.trimmed().isEmpty()
                ? tr("Not applied: there is no config.")
                : tr("Not applied: the config has problems (%1, listed below). The running configuration "
                     "stays.")
                      .arg(v.validation.problems.size()),
            true);
        return false;
    }
    if (m_textApplier) {
        if (m_applyPending) {
            setMessage(tr("Not applied: the last Apply has not been answered yet."), true);
            return false;
        }
        m_applyPending = true;
        m_pendingText = t;
        setMessage(tr("Applying\u2026"), false);
        syncActions();
        m_textApplier(m_secrets.unmask(t).toUtf8());
        return true;
    }
    const Gateway::ApplyResult result = m_applier(*v.validation.config, applySource());
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

QString ConfigEditor::fileErrorText(const config::FileError &error)
{
    using Kind = config::FileError::Kind;
    switch (error.kind) {
    case Kind::IsDirectory:
        return tr("it is a directory");
    case Kind::TooBig:
        return tr("the file is %1 bytes, too big to be a config").arg(error.detail);
    case Kind::BackupUnreadable:
        return tr("the current file cannot be read to back it up: %1").arg(error.detail);
    case Kind::BackupUnwritable:
        return tr("the backup %1 cannot be written: %2").arg(error.path, error.detail);
    case Kind::Invalid:
    case Kind::Unreadable:
    case Kind::Unwritable:
        break;
    }
    return error.detail;
}

bool ConfigEditor::save()
{
    if (isUntitled())
        return saveAsInteractive();
    return saveAs(filePath());
}

bool ConfigEditor::saveAs(const QString &path)
{
    const QString t = text();
    const QString target = QFileInfo(path).absoluteFilePath();
    // Never write a config the gateway would refuse (the controller checks too; env.NAME references need
    // not resolve here: the variables belong to wherever the file is used).
    const auto saved = t.trimmed().isEmpty()
                           ? unexpected(config::FileError{config::FileError::Kind::Invalid, target, {}, {}})
                           : m_controller->saveAs(target, fileBytes());
    if (!saved && saved.error().kind == config::FileError::Kind::Invalid) {
        validateNow();
        setMessage(t.trimmed().isEmpty()
                       ? tr("Not saved: there is no config.")
                       : tr("Not saved: the config has problems (%1, listed below); %2 is unchanged.")
                             .arg(saved.error().problems.size())
                             .arg(target),
                   true);
        return false;
    }
    if (!saved) {
        setMessage(tr("Not saved: %1: %2").arg(target, fileErrorText(saved.error())), true);
        return false;
    }
    m_untitledName.clear();
    m_text->document()->setModified(false);
    m_externalBar->dismiss();
    const QString bak = config::backupPathFor(filePath());
    setMessage(QFileInfo::exists(bak) ? tr("Saved %1 (the previous version is %2).").arg(filePath(), bak)
                                      : tr("Saved %1.").arg(filePath()),
               false);
    updateStatus();
    emit fileSaved(filePath());
    emit documentStateChanged();
    return true;
}

bool ConfigEditor::saveAsInteractive()
{
    const QString suggestion = isUntitled() ? QDir::home().filePath(u"switchyard.json"_s) : filePath();
    const QString path = chooseFile(FileRole::SaveAs, suggestion);
    return !path.isEmpty() && saveAs(path);
}

bool ConfigEditor::exportBifrost(const QString &path)
{
    const auto exported = config::exportBifrostConfig(unmaskedText().toUtf8());
    if (!exported) {
        QStringList lines;
        for (const config::ConfigProblem &p : exported.error())
            lines << p.toString();
        setMessage(tr("Not exported: %1").arg(lines.join(u"; "_s)), true);
        return false;
    }
    const QString target = QFileInfo(path).absoluteFilePath();
    if (const auto written = config::writeFileKeepingBackup(target, *exported); !written) {
        setMessage(tr("Not exported: %1: %2").arg(target, fileErrorText(written.error())), true);
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
    const QString dir = isUntitled() ? QDir::homePath() : QFileInfo(filePath()).absolutePath();
    const QString path = chooseFile(FileRole::ExportBifrost, QDir(dir).filePath(u"config.json"_s));
    return !path.isEmpty() && exportBifrost(path);
}

bool ConfigEditor::importBifrost(const QString &path)
{
    const auto bytes = config::readConfigBytes(path);
    if (!bytes) {
        setMessage(tr("Could not import %1: %2").arg(path, fileErrorText(bytes.error())), true);
        return false;
    }
    // As it is: Bifrost's providers section is Switchyard's, and the sections only Bifrost uses are kept in
    // the text (the loader ignores them). Untitled, so Save never writes over the Bifrost deployment's file.
    const config::ConfigFileText file = config::ConfigFileText::decode(*bytes);
    setUntitledText(file.text, tr("imported from %1").arg(QFileInfo(path).fileName()));
    m_bom = file.bom;
    m_crlf = file.crlf;
    m_text->document()->setModified(true); // not saved anywhere as a Switchyard config yet
    const FormData form = readForm(JsonTextIndex::build(file.text));
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
    if (isUntitled())
        return false;
    if (!maybeDiscard(Reason::Reload))
        return false;
    const auto bytes = m_controller->rereadFile();
    if (!bytes) {
        setMessage(tr("Could not reload %1: %2").arg(filePath(), fileErrorText(bytes.error())), true);
        return false;
    }
    showFileText(*bytes, true);
    m_externalBar->dismiss();
    validateNow();
    refreshForm();
    setMessage(tr("Reloaded %1 from disk (Undo brings the previous text back). Apply puts it into service.")
                   .arg(filePath()),
               false);
    emit documentStateChanged();
    return true;
}

ConfigEditor::Choice ConfigEditor::askUnsaved(Reason reason)
{
    return m_prompt ? m_prompt(reason, documentName()) : askAboutUnsavedEdits(this, reason, documentName());
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
    return m_chooser ? m_chooser(role, suggestion) : askForConfigFile(this, role, suggestion);
}

// --- changes on disk
// ----------------------------------------------------------------------------------------

void ConfigEditor::onFileMissing()
{
    m_text->document()->setModified(true); // only here now: closing must not drop it silently
    m_externalBar->showChange(
        tr("%1 is no longer on disk (deleted or renamed by another program). Save writes it "
           "again.")
            .arg(filePath()),
        false, tr("Dismiss"));
    emit externalChangeDetected(filePath());
}

void ConfigEditor::onFileChanged()
{
    m_externalBar->showChange(
        isModified() ? tr("%1 was changed by another program, and you have unsaved edits here. Reload "
                          "asks first; Keep my version keeps the text as it is here.")
                           .arg(filePath())
                     : tr("%1 was changed by another program.").arg(filePath()),
        true, tr("Keep my version"));
    emit externalChangeDetected(filePath());
}

void ConfigEditor::keepMyVersion()
{
    // The text now differs from the file: it counts as unsaved, so it is not dropped silently later. What
    // the file holds now is known, so the same change is not reported again.
    (void)m_controller->rereadFile();
    m_externalBar->dismiss();
    m_text->document()->setModified(true);
}

QString ConfigEditor::externalChangeText() const
{
    return m_externalBar->text();
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
    const bool canApply = m_textApplier ? !m_applyPending : bool(m_applier);
    const bool applicable = canApply && hasText && (isValidationPending() || m_valid);
    m_actions.apply->setEnabled(applicable);
    m_applyButton->setEnabled(applicable);
    // "Applied" only when the gateway runs exactly this (valid) text.
    const bool running = applicable && !isValidationPending() && m_hasApplied && m_appliedText == text();
    m_applyButton->setText(running ? tr("Applied") : tr("Apply"));
    m_applyButton->setToolTip(m_applyPending ? tr("Waiting for the gateway's answer.")
                              : !canApply   ? tr("No gateway to apply to.")
                              : !hasText    ? tr("No config to apply.")
                              : !applicable ? tr("Fix the problems listed below first.")
                                            : m_actions.apply->toolTip());
    m_actions.save->setEnabled(hasText);
    m_actions.saveAs->setEnabled(hasText);
    m_actions.exportBifrost->setEnabled(hasText);
    m_actions.reload->setEnabled(!isUntitled());
}

void ConfigEditor::updateStatus()
{
    QString doc =
        isUntitled() ? tr("%1 (not a file yet: Save As writes one)").arg(documentName()) : filePath();
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
    m_messageIsError = error;
    m_messageLabel->setText(text);
    m_messageLabel->setVisible(!text.isEmpty());
    m_messageLabel->setStyleSheet(error ? u"color: #c62828;"_s : u"color: #1a7f37;"_s);
}

} // namespace switchyard::ui
