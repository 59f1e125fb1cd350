// The desktop app's start: QApplication, the main window, and an optional file from the command line.
// FLOWSCOPE_SCREENSHOT=out.png makes the app save its window once the file has loaded, then quit
// (used by packaging/run-app.sh on machines without a display).
#include "gui.h"

#include <QApplication>
#include <QTimer>

#include "main_window.h"

namespace flowscope {

int runGui(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("Flowscope");
  QApplication::setOrganizationName("Flowscope");
  QApplication::setApplicationVersion(FLOWSCOPE_VERSION);
  MainWindow window;
  window.show();
  const QString screenshot = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT");
  if (!screenshot.isEmpty()) {
    auto saveAndQuit = [&window, screenshot] {
      QTimer::singleShot(200, &window, [&window, screenshot] {
        bool saved = window.grab().save(screenshot);
        QApplication::exit(saved ? 0 : 1);
      });
    };
    QObject::connect(&window, &MainWindow::modelLoaded, saveAndQuit);
    QObject::connect(&window, &MainWindow::loadFailed, saveAndQuit);
  }
  if (argc >= 2) window.openFile(QString::fromLocal8Bit(argv[1]));
  return QApplication::exec();
}

}  // namespace flowscope
