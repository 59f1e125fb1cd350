// Painting, encoding and writing an export on the worker.
#include "canvas/scene_export.h"

#include <QBuffer>
#include <QFileInfo>
#include <QImageWriter>

#include "base/atomic_file.h"

namespace flowscope {
namespace {

constexpr double kPaintShare = 0.7;  // of a PNG export's progress; encoding it takes the rest

// The PNG's bytes, or an empty array when it was stopped or could not be encoded (`error` says why).
QByteArray encodePng(const SceneSnapshot& s, const ExportProgress& progress, QString* error) {
  bool stopped = false;
  const auto painted = [&](double fraction) {
    stopped = !progress(kPaintShare * fraction, QObject::tr("painting"));
    return !stopped;
  };
  const QImage image =
      renderSceneArea(*s.scene, s.area, s.pixels.width(), s.pixels.height(), s.theme, &s.overlay, nullptr, painted);
  if (stopped || !progress(kPaintShare, QObject::tr("encoding PNG"))) return {};
  if (image.isNull()) {
    *error = QObject::tr("not enough memory for a %1 x %2 px picture").arg(s.pixels.width()).arg(s.pixels.height());
    return {};
  }
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  QImageWriter writer(&buffer, "png");
  if (!writer.write(image)) {
    *error = QObject::tr("cannot encode the PNG: %1").arg(writer.errorString());
    return {};
  }
  return bytes;
}

QByteArray encodeSvg(const SceneSnapshot& s, const ExportProgress& progress, QString* error) {
  if (!progress(-1, QObject::tr("painting"))) return {};
  QByteArray bytes;
  QBuffer buffer(&bytes);
  buffer.open(QIODevice::WriteOnly);
  if (!writeSceneSvg(*s.scene, &buffer, s.theme, &s.overlay, &s.area)) {
    *error = QObject::tr("cannot generate the SVG");
    return {};
  }
  return bytes;
}

}  // namespace

Status writeSceneSnapshot(const SceneSnapshot& snapshot, const QString& path, const ExportProgress& progress) {
  FS_RETURN_IF_ERROR(checkWritableDestination(path.toStdString()));  // before the encoding, which may take seconds
  const bool svg = QFileInfo(path).suffix().compare("svg", Qt::CaseInsensitive) == 0;
  QString error;
  const QByteArray bytes = svg ? encodeSvg(snapshot, progress, &error) : encodePng(snapshot, progress, &error);
  if (!error.isEmpty()) return internalError(path.toStdString() + ": " + error.toStdString());
  if (bytes.isEmpty() || !progress(1, QObject::tr("writing"))) return cancelled("export of " + path.toStdString());
  return writeFileAtomically(path.toStdString(),
                             std::string_view(bytes.constData(), static_cast<size_t>(bytes.size())));
}

}  // namespace flowscope
