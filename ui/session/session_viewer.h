// SessionViewer: the one small interface every panel implements. The Session calls it when its state changes;
// panels read what they show from the Session and never call each other.
#pragma once

namespace flowscope {

class Session;

class SessionViewer {
 public:
  virtual ~SessionViewer() = default;
  /// A document was opened or closed, or the shown level changed (a function body opened, or back up).
  virtual void documentChanged(const Session& session) = 0;
  virtual void selectionChanged(const Session& session) = 0;
  /// The optimizer's pass records arrived or were cleared, or another pass was chosen.
  virtual void passChanged(const Session& session) = 0;
  /// A profile arrived, was imported or cleared, or the overlay mode changed.
  virtual void profileChanged(const Session& session) = 0;
};

}  // namespace flowscope
