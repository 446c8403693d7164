#pragma once

// The Config tab: the gateway's configuration as JSON text and as a form, validated as you type, applied
// live, saved safely.
//
// The text is the single source of truth. The form reads it and writes into it (one undoable step per form
// change), so one undo stack covers both views. Validation is config::parseConfig itself, run off the
// typing path (a short pause after the last keystroke, on a worker thread, stale results dropped); its
// problems are listed under the editor with line:column and path, underlined in the text and marked in the
// form. Apply validates the exact text again and hands the config to the window (which applies it through
// the config controller: an atomic swap, requests in flight finish on the old table) and shows what
// changed. The file itself is the config controller's (config::ConfigController: read, saved atomically
// with <name>.bak, never an invalid config, watched); the editor shows what it reports: changes made by
// other programs are offered for reload, and nothing unsaved is dropped without asking (close, reload,
// open, import).

#include "common/expected.h"
#include "config/configcontroller.h"
#include "config/configloader.h"
#include "configeditoractions.h"
#include "configvalidator.h"
#include "secretmask.h"
#include "gateway.h"
#include "jsonedit.h"
#include "locatedproblem.h"

#include <QByteArray>
#include <QWidget>
#include <functional>

class QAction;
class QLabel;
class QListWidget;
class QPushButton;
class QTabWidget;
class QTimer;

namespace switchyard::ui {

class CodeEditor;
class ConfigForm;
class ExternalChangeBar;
class JsonHighlighter;
class ProblemsPane;

class ConfigEditor final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(ConfigEditor)

public:
    // Why unsaved edits are at stake.
    enum class Reason { Close, Reload, Open, Import };
    enum class Choice { Save, Discard, Cancel };
    // Asked when unsaved edits would be lost. Default: a message box. Tests inject their answer.
    using UnsavedPrompt = std::function<Choice(Reason reason, const QString &documentName)>;
    enum class FileRole { Open, SaveAs, Import, ExportBifrost };
    // Picks a file name; empty = cancelled. Default: a file dialog.
    using FileChooser = std::function<QString(FileRole role, const QString &suggestion)>;
    // Puts a config into service; source names it ("/etc/switchyard/config.json", "built-in demo (edited)").
    using Applier =
        std::function<Gateway::ApplyResult(const config::GatewayConfig &config, const QString &source)>;

    // controller: the file's (the window's, shared with the gateway's PUT /api/config). Without one the
    // editor has a controller of its own that only reads, saves and watches files.
    explicit ConfigEditor(QWidget *parent = nullptr);
    explicit ConfigEditor(config::ConfigController *controller, QWidget *parent = nullptr);
    ~ConfigEditor() override;

    void setApplier(Applier applier);
    // Puts the text into service somewhere that answers later (a remote gateway over its link): Apply
    // validates, hands the exact text over and says it is on its way; finishApply() reports the outcome.
    // Takes the place of the Applier.
    using TextApplier = std::function<void(const QByteArray &text)>;
    void setTextApplier(TextApplier applier);
    // The outcome of the text applier's last call. Either way the editor's text stays as it is; applied:
    // it becomes the running text; else message says why not.
    void finishApply(bool applied, const QString &message);
    bool isApplyPending() const { return m_applyPending; }
    void setEnvironment(config::EnvLookup env); // for env.NAME references; default: the process environment
    void setUnsavedPrompt(UnsavedPrompt prompt);
    void setFileChooser(FileChooser chooser);
    void setValidationDelay(int ms); // the pause after typing before validating (default 300 ms)

    // --- the document ---
    // Loads a file into the editor (it becomes the document and is watched). Returns the bytes read, so the
    // caller applies exactly what is shown; the error says why it could not be read. Does not ask.
    Expected<QByteArray, QString> openFile(const QString &path);
    // Shows a config that is not (yet) a file, e.g. the demo's; Save asks for a name.
    void setUntitledText(const QString &text, const QString &sourceName);
    // The window has put the document's text into service (after openFile): remembered as applied.
    void markApplied();
    QString text() const; // as shown: literal secrets masked ("********")
    QString unmaskedText() const; // as saved and applied: the secrets back where the mask stands
    QString filePath() const { return m_controller->filePath(); }
    QString documentName() const; // the file name, or what the untitled text is
    bool isModified() const;
    bool isUntitled() const { return filePath().isEmpty(); }

    // --- validation ---
    // Validates the current text now (on this thread) and updates the problems, markers and form.
    void validateNow();
    bool isValidationPending() const { return m_validator->isPending(); }
    bool isValid() const { return m_valid; }
    const QList<LocatedProblem> &problems() const { return m_problems; }
    qint64 lastValidationMicros() const { return m_validationMicros; }

    // --- actions (the buttons and shortcuts call these; tests too) ---
    bool apply(); // false: not valid (nothing applied) or no applier
    bool save();  // Save As when untitled
    bool saveAs(const QString &path);
    bool saveAsInteractive();
    bool reload(); // from disk, asking about unsaved edits; undoable
    bool importBifrost(const QString &path);
    bool importInteractive();
    bool exportBifrost(const QString &path);
    bool exportInteractive();
    void undo();
    void redo();
    // True when it is fine to drop the document (nothing unsaved, saved now, or the operator said discard).
    bool maybeDiscard(Reason reason);

    // Applies form edits to the text as one undoable step; false if any could not be made.
    bool applyEdits(const QList<JsonEdit> &edits);

    // --- views ---
    void showForm();
    void showText();
    bool isFormShown() const;
    // Moves the cursor to a listed problem (switching to the text) and selects what it is about.
    void goToProblem(int row);
    // Refreshes the form from the text now (normally done right after a change, before the next paint).
    void refreshForm();

    CodeEditor *textEdit() const { return m_text; }
    ConfigForm *form() const { return m_form; }
    QListWidget *problemList() const;
    QString problemsHeader() const;
    QString statusText() const; // document line + last apply
    QString lastApplySummary() const { return m_applySummary; }
    QString externalChangeText() const; // the "changed on disk" bar, empty when hidden
    bool externalChangePending() const;
    QString lastMessage() const { return m_message; } // the last refusal or confirmation
    bool lastMessageIsError() const { return m_messageIsError; } // shown in red; else in green

    QAction *applyAction() const { return m_actions.apply; }
    QAction *saveAction() const { return m_actions.save; }
    QAction *saveAsAction() const { return m_actions.saveAs; }
    QAction *importAction() const { return m_actions.import; }
    QAction *exportAction() const { return m_actions.exportBifrost; }
    QAction *undoAction() const { return m_actions.undo; }
    QAction *redoAction() const { return m_actions.redo; }
    QAction *reloadAction() const { return m_actions.reload; }
    QAction *openAction() const { return m_actions.open; }

signals:
    // The Open button: the window asks about unsaved edits, picks a file and opens it (and applies it).
    // When nothing is connected, the editor opens the file itself without applying.
    void openRequested();
    void applied(const switchyard::Gateway::ApplyResult &result);
    void validated();
    void externalChangeDetected(const QString &path);
    // The file, the modified flag or the untitled name changed: titles follow.
    void documentStateChanged();
    void fileSaved(const QString &path);

private:
    void buildUi();
    void connectActions();
    void onTextChanged();
    void takeValidation(const ConfigValidator::Result &v);
    void syncActions();
    void updateStatus();
    void setMessage(const QString &text, bool error);
    void loadText(const QString &text, bool undoable);
    void showFileText(const QByteArray &bytes, bool undoable);
    QByteArray fileBytes() const; // what Save writes: the text with its masked secrets put back
    void onFileChanged();
    void onFileMissing();
    void keepMyVersion();
    Choice askUnsaved(Reason reason);
    QString chooseFile(FileRole role, const QString &suggestion);
    QString applySource() const;
    static QString fileErrorText(const config::FileError &error);

    config::ConfigController *m_controller;
    ConfigValidator *m_validator;
    CodeEditor *m_text;
    JsonHighlighter *m_highlighter;
    ConfigForm *m_form;
    QTabWidget *m_views;
    ProblemsPane *m_problemsPane;
    QLabel *m_docLabel;
    QLabel *m_applyLabel;
    QLabel *m_messageLabel;
    ExternalChangeBar *m_externalBar;
    QPushButton *m_applyButton;
    ConfigEditorActions m_actions;
    QTimer *m_formTimer;

    Applier m_applier;
    TextApplier m_textApplier;
    QString m_pendingText; // the text a text applier has on its way
    bool m_applyPending = false;
    UnsavedPrompt m_prompt;
    FileChooser m_chooser;

    QString m_untitledName; // what an untitled text is ("built-in demo")
    SecretMask m_secrets; // the literal secrets the JSON view shows as "********"
    bool m_bom = false;     // the file started with a UTF-8 byte-order mark: written back with it
    bool m_crlf = false;    // the file used CRLF line ends: written back with them
    QString m_appliedText;  // the text last put into service, to tell whether Apply has anything new
    bool m_hasApplied = false;
    QString m_lastText; // the text as of the last change seen
    bool m_valid = false;
    QList<LocatedProblem> m_problems;
    qint64 m_validationMicros = 0;
    bool m_formDirty = true;
    bool m_loading = false; // replacing the whole text: not a user edit
    QString m_applySummary;
    QString m_message;
    bool m_messageIsError = false;
};

} // namespace switchyard::ui
