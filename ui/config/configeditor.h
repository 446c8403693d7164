#pragma once

// The Config tab: the gateway's configuration as JSON text and as a form, validated as you type, applied
// live, saved safely.
//
// The text is the single source of truth. The form reads it and writes into it (one undoable step per form
// change), so one undo stack covers both views. Validation is config::parseConfig itself, run off the
// typing path (a short pause after the last keystroke, on a worker thread, stale results dropped); its
// problems are listed under the editor with line:column and path, underlined in the text and marked in the
// form. Apply validates the exact text again and hands the config to the window (Gateway::applyConfig: an
// atomic swap, requests in flight finish on the old table) and shows what changed. Save is atomic
// (QSaveFile) and keeps the previous version as <name>.bak; an invalid config is never written. Changes made
// to the file by other programs are noticed (including atomic-rename saves) and offered for reload, and
// nothing unsaved is dropped without asking (close, reload, open, import).

#include "common/expected.h"
#include "config/configloader.h"
#include "gateway.h"
#include "jsonedit.h"

#include <QByteArray>
#include <QFutureWatcher>
#include <QWidget>
#include <functional>
#include <optional>

class QAction;
class QFileSystemWatcher;
class QFrame;
class QLabel;
class QListWidget;
class QListWidgetItem;
class QPushButton;
class QTabWidget;
class QTimer;
class QToolBar;

namespace switchyard::ui {

class CodeEditor;
class ConfigForm;
class JsonHighlighter;

// A problem from the loader with where it is in the text.
struct LocatedProblem
{
    config::ConfigProblem problem;
    int start = -1; // text range to mark, -1 when the problem has no place (e.g. "invalid JSON: overflow")
    int end = -1;
    int line = 0; // 1-based, 0 when unknown
    int column = 0;
    QString text() const; // "12:21  providers.a.keys[0].weight: must be 0 or more (got -1)"
};

// Places every problem in text: syntax errors by their line and column, the rest by their path (a missing
// member is placed at the nearest enclosing one that exists).
QList<LocatedProblem> locateProblems(const config::ConfigProblems &problems, QStringView text);

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

    explicit ConfigEditor(QWidget *parent = nullptr);
    ~ConfigEditor() override;

    void setApplier(Applier applier);
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
    QString text() const;
    QString filePath() const { return m_path; }
    QString documentName() const; // the file name, or what the untitled text is
    bool isModified() const;
    bool isUntitled() const { return m_path.isEmpty(); }

    // --- validation ---
    // Validates the current text now (on this thread) and updates the problems, markers and form.
    void validateNow();
    bool isValidationPending() const;
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
    QListWidget *problemList() const { return m_problemList; }
    QString problemsHeader() const;
    QString statusText() const; // document line + last apply
    QString lastApplySummary() const { return m_applySummary; }
    QString externalChangeText() const; // the "changed on disk" bar, empty when hidden
    bool externalChangePending() const;
    QString lastMessage() const { return m_message; } // the last refusal or confirmation

    QAction *applyAction() const { return m_applyAction; }
    QAction *saveAction() const { return m_saveAction; }
    QAction *saveAsAction() const { return m_saveAsAction; }
    QAction *importAction() const { return m_importAction; }
    QAction *exportAction() const { return m_exportAction; }
    QAction *undoAction() const { return m_undoAction; }
    QAction *redoAction() const { return m_redoAction; }
    QAction *reloadAction() const { return m_reloadAction; }
    QAction *openAction() const { return m_openAction; }

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
    struct Validation
    {
        quint64 generation = 0;
        QString text;
        std::optional<config::GatewayConfig> config;
        config::ConfigProblems problems;
        qint64 micros = 0;
    };
    static Validation validate(quint64 generation, const QString &text, const config::EnvLookup &env);

    void buildUi();
    void onTextChanged();
    void startValidation();
    void takeValidation(const Validation &v);
    void syncActions();
    void updateStatus();
    void setMessage(const QString &text, bool error);
    void loadText(const QString &text, bool undoable);
    QByteArray fileBytes(const QString &text) const;
    bool writeFile(const QString &path, const QByteArray &bytes, bool backup, QString *error);
    void watch(const QString &path);
    void scheduleDiskCheck();
    void checkDisk();
    void showExternalBar(const QString &text, bool offerReload);
    void hideExternalBar();
    Choice askUnsaved(Reason reason);
    QString chooseFile(FileRole role, const QString &suggestion);
    QString applySource() const;

    CodeEditor *m_text;
    JsonHighlighter *m_highlighter;
    ConfigForm *m_form;
    QTabWidget *m_views;
    QListWidget *m_problemList;
    QLabel *m_problemsHeader;
    QLabel *m_docLabel;
    QLabel *m_applyLabel;
    QLabel *m_messageLabel;
    QFrame *m_externalBar;
    QLabel *m_externalText;
    QPushButton *m_reloadButton;
    QPushButton *m_keepButton;
    QPushButton *m_applyButton;
    QToolBar *m_toolbar;
    QAction *m_openAction;
    QAction *m_importAction;
    QAction *m_saveAction;
    QAction *m_saveAsAction;
    QAction *m_exportAction;
    QAction *m_undoAction;
    QAction *m_redoAction;
    QAction *m_reloadAction;
    QAction *m_applyAction;
    QTimer *m_validateTimer;
    QTimer *m_formTimer;
    QTimer *m_diskTimer;
    QFileSystemWatcher *m_watcher;
    QFutureWatcher<Validation> m_validation;

    Applier m_applier;
    config::EnvLookup m_env;
    UnsavedPrompt m_prompt;
    FileChooser m_chooser;

    QString m_path;         // empty: untitled
    QString m_untitledName; // what an untitled text is ("built-in demo")
    QByteArray m_diskBytes; // the file as last read or written by the editor
    bool m_diskMissing = false;
    bool m_bom = false;    // the file started with a UTF-8 byte-order mark: written back with it
    bool m_crlf = false;   // the file used CRLF line ends: written back with them
    QString m_appliedText; // the text last put into service, to tell whether Apply has anything new
    bool m_hasApplied = false;
    QString m_lastText;       // the text as of the last change seen
    quint64 m_generation = 0; // bumps with every change of the text
    quint64 m_validatedGeneration = 0;
    bool m_valid = false;
    QList<LocatedProblem> m_problems;
    qint64 m_validationMicros = 0;
    bool m_formDirty = true;
    bool m_loading = false; // replacing the whole text: not a user edit
    QString m_applySummary;
    QString m_message;
};

} // namespace switchyard::ui
