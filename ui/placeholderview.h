#pragma once

// An honest stand-in for a view another issue builds: what it will do, and what to use until then.

#include <QWidget>

class QLabel;

namespace switchyard::ui {

class PlaceholderView final : public QWidget
{
    Q_OBJECT
    Q_DISABLE_COPY_MOVE(PlaceholderView)

public:
    PlaceholderView(const QString &title, const QString &text, QWidget *parent = nullptr);

    // A second, changing paragraph (e.g. the current config file, a curl line with the gateway's URL).
    void setDetail(const QString &text);
    QString detail() const;

private:
    QLabel *m_detail;
};

} // namespace switchyard::ui
