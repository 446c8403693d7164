#pragma once

// The first run: no config was ever opened. Three ways in: the demo (simulated nodes, nothing to set
// up), the operator's own Bifrost config file, or "Add my nodes" — a short form (base URLs, model) that
// writes a config into the per-user config directory for the panel to open. The same form is
// File ▸ Add nodes later.

#include <QDialog>

class QLabel;
class QLineEdit;
class QPlainTextEdit;
class QStackedWidget;

namespace switchyard::ui {

class WelcomeDialog final : public QDialog
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(WelcomeDialog)

public:
    enum class Choice { None, Demo, OpenConfig, NodesWritten };
    Q_ENUM(Choice)
    enum class Page { Welcome, Nodes };

    explicit WelcomeDialog(QWidget *parent = nullptr);

    void showPage(Page page);
    Choice choice() const { return m_choice; }
    QString writtenPath() const { return m_writtenPath; } // after NodesWritten

    // The form's fields (tests fill them; createConfig() is the "Create" button).
    QPlainTextEdit *urlsEdit() const { return m_urls; }
    QLineEdit *modelEdit() const { return m_model; }
    QLineEdit *apiKeyEdit() const { return m_apiKey; }
    QLineEdit *listenEdit() const { return m_listen; }
    QString formError() const; // what the form reports, empty when nothing
    bool createConfig();       // writes the file and accepts; false: the problems are shown

    // Whether the welcome should appear at start-up: never shown (QSettings) and no config ever opened.
    static bool wanted();
    static void setShown();

private:
    void choose(Choice choice);
    // What the form would write, or its problems; shown while the operator types once they were shown.
    void revalidate();
    void showProblem(const QString &problem);

    QStackedWidget *m_pages;
    QPlainTextEdit *m_urls;
    QLineEdit *m_model;
    QLineEdit *m_apiKey;
    QLineEdit *m_listen;
    QLabel *m_target;
    QLabel *m_error;
    Choice m_choice = Choice::None;
    bool m_attempted = false; // Create was pressed: problems are shown as the fields change
    QString m_writtenPath;
};

} // namespace switchyard::ui
