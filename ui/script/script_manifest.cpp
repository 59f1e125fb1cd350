// Reading manifest.json and compare.json.
#include "script/script_manifest.h"

#include <QDir>
#include <QFile>
#include <QJsonArray>
#include <QJsonDocument>
#include <QJsonObject>

namespace flowscope {
namespace {

Expected<QJsonObject> readJson(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) return notFound("the script runner wrote no " + path.toStdString());
  QJsonParseError error;
  const QJsonDocument doc = QJsonDocument::fromJson(file.readAll(), &error);
  if (!doc.isObject()) return invalidArgument(path.toStdString() + ": " + error.errorString().toStdString());
  return doc.object();
}

QString describeArgument(const QJsonObject& a) {
  const QString kind = a["kind"].toString();
  if (kind == "tensor" || kind == "variable") {
    QStringList dims;
    for (const auto& d : a["shape"].toArray()) dims << QString::number(d.toInteger());
    return QString("%1 %2[%3]").arg(kind, a["dtype"].toString(), dims.join(","));
  }
  if (kind == "literal") {
    // A document holds an array or object only: wrap the value in one and drop the brackets.
    return QString::fromUtf8(QJsonDocument(QJsonArray{a["value"]}).toJson(QJsonDocument::Compact)).mid(1).chopped(1);
  }
  return a["repr"].toString();
}

QString describeCall(const QJsonObject& call) {
  QStringList parts;
  for (const auto& a : call["args"].toArray()) parts << describeArgument(a.toObject());
  const QJsonObject kwargs = call["kwargs"].toObject();
  for (auto it = kwargs.begin(); it != kwargs.end(); ++it)
    parts << it.key() + "=" + describeArgument(it.value().toObject());
  return "(" + parts.join(", ") + ")";
}

ScriptConcrete readConcrete(const QJsonObject& c, const QDir& dir) {
  ScriptConcrete out;
  out.name = c["name"].toString();
  out.signature = c["signature"].isString() ? c["signature"].toString() : c["signature_error"].toString();
  if (c["graph"].isString()) out.graphFile = dir.absoluteFilePath(c["graph"].toString());
  out.graphError = c["graph_error"].toString();
  out.callCount = c["call_count"].toInt();
  for (const auto& call : c["calls"].toArray()) out.calls << describeCall(call.toObject());
  return out;
}

ScriptFunction readFunction(const QJsonObject& f, const QDir& dir) {
  ScriptFunction out;
  out.name = f["name"].toString();
  out.qualname = f["qualname"].toString(out.name);
  out.file = f["file"].toString();
  out.line = f["line"].toInt();
  out.source = f["source"].isString() ? f["source"].toString() : f["source_error"].toString(f["error"].toString());
  out.autographFailed = !f["autograph_source"].isString();
  out.autographSource = out.autographFailed ? f["autograph_error"].toString() : f["autograph_source"].toString();
  out.tracingCount = f["tracing_count"].toInt();
  out.callCount = f["call_count"].toInt();
  out.eagerCalls = f["eager_calls"].toInt();
  for (const auto& c : f["concrete_functions"].toArray()) out.concretes.push_back(readConcrete(c.toObject(), dir));
  return out;
}

}  // namespace

Expected<ScriptManifest> readScriptManifest(const QString& dir) {
  FS_ASSIGN_OR_RETURN(QJsonObject root, readJson(QDir(dir).filePath("manifest.json")));
  ScriptManifest m;
  m.dir = dir;
  m.script = root["script"].toString();
  m.raised = root["status"].toString() != "ok";
  m.error = root["error"].toString();
  for (const auto& f : root["functions"].toArray()) m.functions.push_back(readFunction(f.toObject(), QDir(dir)));
  return m;
}

Expected<ScriptComparison> readScriptComparison(const QString& dir) {
  FS_ASSIGN_OR_RETURN(QJsonObject root, readJson(QDir(dir).filePath("compare.json")));
  if (root.contains("error")) return invalidArgument(root["error"].toString().toStdString());
  ScriptComparison c;
  c.function = root["function"].toString();
  c.rounds = root["rounds"].toInt();
  c.recordedCalls = root["recorded_calls"].toInt();
  const QJsonObject eager = root["eager"].toObject(), graph = root["graph"].toObject();
  c.eagerMedianUs = eager["median_us"].toDouble();
  c.graphMedianUs = graph["median_us"].toDouble();
  c.eagerSeconds = eager["total_seconds"].toDouble();
  c.graphSeconds = graph["total_seconds"].toDouble();
  c.speedup = root["graph_speedup"].toDouble();
  c.outputsEqual = root["outputs_equal"].toBool();
  c.maxAbsDifference = root["max_abs_difference"].isDouble() ? root["max_abs_difference"].toDouble() : -1;
  for (const auto& name : root["concrete_functions"].toArray()) c.concretes << name.toString();
  c.rawJson = QString::fromUtf8(QJsonDocument(root).toJson(QJsonDocument::Indented));
  return c;
}

QString comparisonVerdict(const ScriptComparison& c) {
  const double ratio = c.speedup >= 1 || c.speedup <= 0 ? c.speedup : 1 / c.speedup;
  QString same = c.outputsEqual ? QStringLiteral("outputs equal")
                 : c.maxAbsDifference < 0
                     ? QStringLiteral("outputs DIFFER")
                     : QString("outputs DIFFER (max abs difference %1)").arg(c.maxAbsDifference, 0, 'g', 4);
  return QString("graph is %1x %2 than eager (median per call); %3")
      .arg(QString::number(ratio, 'f', 2), c.speedup >= 1 ? "faster" : "slower", same);
}

QString comparisonTable(const ScriptComparison& c) {
  QString text = QString("%1: %2 recorded call(s) x %3 rounds\n").arg(c.function).arg(c.recordedCalls).arg(c.rounds);
  text += QString("%1 %2 %3\n").arg("", -8).arg("median/call", 14).arg("total", 14);
  text += QString("%1 %2 us %3 s\n").arg("eager", -8).arg(c.eagerMedianUs, 11, 'f', 1).arg(c.eagerSeconds, 12, 'f', 6);
  text += QString("%1 %2 us %3 s\n").arg("graph", -8).arg(c.graphMedianUs, 11, 'f', 1).arg(c.graphSeconds, 12, 'f', 6);
  return text + comparisonVerdict(c) + "\n";
}

}  // namespace flowscope
