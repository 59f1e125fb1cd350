// The settings store: a change is seen at once, reaches the disk in order from a background thread, and many changes
// made while a save runs all land (TSan runs this test).
#include <QFile>
#include <QSettings>
#include <QTemporaryDir>
#include <QtTest>

#include "session/settings_store.h"

using namespace flowscope;

class TestSettingsStore : public QObject {
  Q_OBJECT

 private slots:
  void initTestCase() {
    QVERIFY(m_home.isValid());
    QSettings::setPath(QSettings::NativeFormat, QSettings::UserScope, m_home.path());
    QCoreApplication::setOrganizationName("FlowscopeTests");
    QCoreApplication::setApplicationName("tst_settings_store");
  }

  void aChangeIsSeenAtOnceAndSavedInOrder() {
    SettingsStore& store = SettingsStore::instance();
    QVERIFY(!store.contains("view/theme"));
    QCOMPARE(store.value("view/minimap", true).toBool(), true);  // the fallback while nothing is set
    store.setValue("view/theme", "dark");
    store.setValue("view/theme", "light");
    store.setValue("recentFiles", QStringList{"/a.pb", "/b.onnx"});
    QVERIFY(store.contains("view/theme"));
    QCOMPARE(store.value("view/theme").toString(), QString("light"));
    store.flush();
    const QByteArray saved = savedFile();
    QVERIFY2(saved.contains("theme=light") && !saved.contains("theme=dark"), saved.constData());
    QVERIFY2(saved.contains("/a.pb") && saved.contains("/b.onnx"), saved.constData());
  }

  void changesDuringASaveAllLand() {
    SettingsStore& store = SettingsStore::instance();
    for (int i = 0; i < 300; ++i) {
      store.setValue("soak/counter", i);
      store.setValue(QString("soak/key%1").arg(i % 7), i);
      QCOMPARE(store.value("soak/counter").toInt(), i);  // never an older value, whatever the saver is doing
    }
    store.flush();
    const QByteArray saved = savedFile();
    QVERIFY2(saved.contains("counter=299"), saved.constData());
    for (int k = 0; k < 7; ++k) {  // the last value written to each key, nothing older
      const int last = 299 - (299 - k) % 7;
      QVERIFY2(saved.contains(QString("key%1=%2\n").arg(k).arg(last).toUtf8()), saved.constData());
    }
    QCOMPARE(QSettings().value("soak/counter").toInt(), 299);
  }

 private:
  QByteArray savedFile() const {
    QFile file(QSettings().fileName());
    return file.open(QIODevice::ReadOnly) ? file.readAll() : QByteArray();
  }

  QTemporaryDir m_home;
};

QTEST_GUILESS_MAIN(TestSettingsStore)
#include "tst_settings_store.moc"
