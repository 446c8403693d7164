#pragma once

// For a look at what a UI test left on screen: with SWITCHYARD_SCREENSHOT_DIR set (the directory must
// exist), the widget is grabbed at the given size into that directory under name, with a dialog drawn
// over it when one is given (a modal box is a window of its own: grabbing the main window misses it).
// Offscreen renders too. Nothing happens without the variable, so the suite's runs write no files.

#include <QColor>
#include <QCoreApplication>
#include <QPainter>
#include <QPixmap>
#include <QSize>
#include <QString>
#include <QTest>
#include <QWidget>

namespace switchyard::testing {

inline void saveScreenshot(QWidget &window, const QString &name, QSize size = QSize(1400, 860),
                           QWidget *dialog = nullptr)
{
    const QString dir = qEnvironmentVariable("SWITCHYARD_SCREENSHOT_DIR");
    if (dir.isEmpty())
        return;
    window.resize(size);
    QCoreApplication::processEvents();
    QPixmap shot = window.grab();
    if (dialog) {
        dialog->adjustSize();
        const QPixmap box = dialog->grab();
        QPainter p(&shot);
        p.fillRect(shot.rect(), QColor(0, 0, 0, 60));
        p.drawPixmap((shot.width() - box.width()) / 2, (shot.height() - box.height()) / 3, box);
    }
    QVERIFY(shot.save(dir + u'/' + name));
}

inline void saveScreenshot(QWidget &window, const QString &name, QWidget *dialog)
{
    saveScreenshot(window, name, QSize(1400, 860), dialog);
}

} // namespace switchyard::testing
