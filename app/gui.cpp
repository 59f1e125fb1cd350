// The desktop app's start: QApplication, the main window, and an optional file from the command line.
#include "gui.h"

#include <QApplication>

#include "main_window.h"

namespace flowscope {

int runGui(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("Flowscope");
  QApplication::setOrganizationName("Flowscope");
  QApplication::setApplicationVersion(FLOWSCOPE_VERSION);
  MainWindow window;
  window.show();
  if (argc >= 2) window.openFile(QString::fromLocal8Bit(argv[1]));
  return QApplication::exec();
}

}  // namespace flowscope
