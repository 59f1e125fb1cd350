// The desktop app's start: QApplication, the main window, and an optional file from the command line.
// FLOWSCOPE_SCREENSHOT=out.png makes the app save its window once the file has loaded and been laid out, then
// quit (used by packaging/run-app.sh on machines without a display). FLOWSCOPE_SCREENSHOT_PROFILE=N profiles N
// runs first, so the picture shows the timing overlay, the op table and the timeline.
// FLOWSCOPE_SCREENSHOT_COMPARE=NAME (no file needed) shows the Eager vs Graph tab after comparing that gallery
// function (FLOWSCOPE_SCREENSHOT_CALLS calls, default 200). FLOWSCOPE_SCREENSHOT_SIZE=WxH sizes the window.
// FLOWSCOPE_SCREENSHOT_EXPAND=SCOPE expands that scope and shows it at 100% (the minimap and outline then show).
// FLOWSCOPE_SCREENSHOT_FUNCTION=NAME opens that library function's body (the breadcrumb then shows).
// FLOWSCOPE_SCREENSHOT_OVERLAY=time|roofline|device colours the profiled graph that way.
// FLOWSCOPE_SCREENSHOT_TAB=NAME shows that tab (Source: an opened script's sources) when saving.
// FLOWSCOPE_SCREENSHOT_SELECT=NODE selects that node of the opened graph when saving (the inspector shows it).
#include "gui.h"

#include <QApplication>
#include <QTabWidget>
#include <QTimer>

#include "canvas/graph_canvas.h"
#include "main_window.h"
#include "panels/compare_panel.h"
#include "panels/profile_panel.h"
#include "session/session.h"

namespace flowscope {
namespace {

// On each laid-out scene: open the requested function body, expand the requested scope, then profile or save.
void continueScreenshot(MainWindow& window, const std::function<void()>& saveAndQuit, int profileRuns,
                        const std::string& asWritten, const std::string& function) {
  GraphCanvas* canvas = window.canvas();
  if (!function.empty() && window.navigation().atRoot()) {
    if (window.openFunction(function)) return;  // the body's scene comes next
  }
  const int wanted = asWritten.empty() ? -1 : canvas->layout()->tree().findAsWritten(asWritten);
  const std::string expand = wanted < 0 ? std::string() : std::string(canvas->layout()->tree().group(wanted).path);
  if (!expand.empty() && !canvas->expanded().count(expand)) {
    std::set<std::string> scopes{expand};  // the scope and the scopes around it
    for (size_t at = expand.find('/'); at != std::string::npos; at = expand.find('/', at + 1))
      scopes.insert(expand.substr(0, at));
    return canvas->setExpanded(scopes);
  }
  if (!expand.empty()) {
    canvas->setView(1.0, canvas->topLeft());
    const int group = canvas->layout()->tree().find(expand);
    canvas->selectGroup(group);
    for (const SceneItem& item : canvas->scene()->items)
      if (item.kind == SceneItem::Kind::kGroup && item.id == group)
        canvas->centerOn(QPointF(item.rect.x + item.rect.w / 2, item.rect.y + std::min(item.rect.h / 2, 300.0)));
  }
  if (profileRuns > 0)
    window.profilePanel()->profile(profileRuns);
  else
    saveAndQuit();
}

// FLOWSCOPE_SCREENSHOT mode: drive the window to the requested state, save it, quit.
void installScreenshotMode(MainWindow& window, const QString& screenshot) {
  const QStringList size = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_SIZE").split('x');
  if (size.size() == 2 && size[0].toInt() >= 400 && size[1].toInt() >= 300)
    window.resize(size[0].toInt(), size[1].toInt());
  const QString tab = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_TAB");
  const std::string select = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_SELECT").toStdString();
  auto saveAndQuit = [&window, screenshot, tab, select] {
    const auto model = window.session().model();
    if (const int64_t node = model && !select.empty() ? model->graph.find(select) : -1; node >= 0)
      window.session().selectInOpenedGraph(static_cast<size_t>(node));
    for (int i = 0; i < window.tabs()->count(); ++i)
      if (!tab.isEmpty() && window.tabs()->tabText(i).compare(tab, Qt::CaseInsensitive) == 0)
        window.tabs()->setCurrentIndex(i);
    QTimer::singleShot(300, &window, [&window, screenshot] {
      bool saved = window.grab().save(screenshot);
      QApplication::exit(saved ? 0 : 1);
    });
  };
  const int profileRuns = qEnvironmentVariableIntValue("FLOWSCOPE_SCREENSHOT_PROFILE");
  const std::string expand = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_EXPAND").toStdString();
  const std::string function = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_FUNCTION").toStdString();
  QObject::connect(window.canvas(), &GraphCanvas::sceneReady, &window,
                   [=, &window] { continueScreenshot(window, saveAndQuit, profileRuns, expand, function); });
  const QString overlay = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_OVERLAY");
  if (overlay == "roofline") window.session().setOverlayMode(OverlayMode::kRoofline);
  if (overlay == "device") window.session().setOverlayMode(OverlayMode::kDevice);
  QObject::connect(&window.session(), &Session::profiled, saveAndQuit);
  QObject::connect(&window.session(), &Session::profileFailed, saveAndQuit);
  QObject::connect(&window, &MainWindow::loadFailed, saveAndQuit);
  const QString compare = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT_COMPARE");
  if (!compare.isEmpty()) {
    const int calls = qEnvironmentVariableIntValue("FLOWSCOPE_SCREENSHOT_CALLS");
    window.tabs()->setCurrentWidget(window.comparePanel());
    QObject::connect(window.comparePanel(), &ComparePanel::compared, saveAndQuit);
    QObject::connect(window.comparePanel(), &ComparePanel::failed, saveAndQuit);
    window.comparePanel()->compare(compare, calls > 0 ? calls : 200);
  }
}

}  // namespace

int runGui(int argc, char** argv) {
  QApplication app(argc, argv);
  QApplication::setApplicationName("Flowscope");
  QApplication::setOrganizationName("Flowscope");
  QApplication::setApplicationVersion(FLOWSCOPE_VERSION);
  MainWindow window;
  window.show();
  const QString screenshot = qEnvironmentVariable("FLOWSCOPE_SCREENSHOT");
  if (!screenshot.isEmpty()) installScreenshotMode(window, screenshot);
  if (argc >= 2) window.openFile(QString::fromLocal8Bit(argv[1]));
  return QApplication::exec();
}

}  // namespace flowscope
