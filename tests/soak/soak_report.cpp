// The soak's records and summary: the memory curve, the UI-thread stalls, what failed and what the app showed.
#include <algorithm>
#include <cstdio>

#include "soak_driver.h"

namespace flowscope::soak {
namespace {

// The mean of a memory figure over records [begin, end).
template <typename It>
double meanOf(It begin, It end, double Memory::*figure) {
  double sum = 0;
  for (auto it = begin; it != end; ++it) sum += it->memory.*figure;
  return begin == end ? 0 : sum / static_cast<double>(end - begin);
}

void printBlock(const char* label, const Block& b) {
  std::printf("%-28s %7.1f ms (UI thread on CPU %6.1f ms)  %s  [%s]\n", label, b.wallMs, b.cpuMs, qPrintable(b.file),
              qPrintable(b.step));
  if (!b.where.isEmpty()) std::printf("%28s   %s\n", "", qPrintable(b.where));
}

}  // namespace

void SoakDriver::record(double seconds) {
  FileRecord r{++m_index, m_file, memoryNow(), m_beat.fileWorst(), seconds};
  std::printf("[%3d] %-90s RSS %7.1f MiB  heap %7.1f MiB  worst block %6.1f ms [%s]  %.1f s\n", r.index,
              qPrintable(r.name.right(90)), r.memory.rssMiB, r.memory.heapMiB, r.worst.wallMs, qPrintable(r.worst.step),
              seconds);
  std::fflush(stdout);
  m_curve.push_back(r);
}

void SoakDriver::printCurve() const {
  std::printf("\nMemory after each close (index, RSS MiB, heap MiB, file):\n");
  for (const FileRecord& r : m_curve)
    std::printf("  %3d %8.1f %8.1f  %s\n", r.index, r.memory.rssMiB, r.memory.heapMiB, qPrintable(r.name));
  if (m_curve.empty()) return;
  const size_t n = std::min<size_t>(3, m_curve.size());
  const auto first = m_curve.begin(), last = m_curve.end();
  const double rssMax = std::max_element(first, last, [](const FileRecord& a, const FileRecord& b) {
                          return a.memory.rssMiB < b.memory.rssMiB;
                        })->memory.rssMiB;
  const auto head = first + static_cast<long>(n), tail = last - static_cast<long>(n);
  std::printf(
      "RSS first %.1f, last %.1f, max %.1f MiB; mean of the last %zu minus the first %zu: RSS %+.1f MiB, heap "
      "%+.1f MiB\n",
      first->memory.rssMiB, (last - 1)->memory.rssMiB, rssMax, n, n,
      meanOf(tail, last, &Memory::rssMiB) - meanOf(first, head, &Memory::rssMiB),
      meanOf(tail, last, &Memory::heapMiB) - meanOf(first, head, &Memory::heapMiB));
  const size_t perPass = m_curve.size() / static_cast<size_t>(m_options.repeat);
  if (m_options.repeat < 2 || perPass == 0) return;
  const FileRecord &once = m_curve[perPass - 1], &again = m_curve.back();
  std::printf(
      "The same file at the end of pass 1 and of pass %d: RSS %.1f -> %.1f MiB (%+.1f), heap %.1f -> %.1f MiB "
      "(%+.1f)\n",
      m_options.repeat, once.memory.rssMiB, again.memory.rssMiB, again.memory.rssMiB - once.memory.rssMiB,
      once.memory.heapMiB, again.memory.heapMiB, again.memory.heapMiB - once.memory.heapMiB);
}

void SoakDriver::printBlocks() const {
  std::printf("\nWorst UI-thread block per step:\n");
  for (const auto& [step, block] : m_beat.worstByStep()) printBlock(qPrintable("  " + step), block);
  std::vector<Block> over = m_beat.overThreshold();
  std::sort(over.begin(), over.end(), [](const Block& a, const Block& b) { return a.wallMs > b.wallMs; });
  std::printf("\n%zu blocks over 100 ms (the 25 longest):\n", over.size());
  for (size_t i = 0; i < over.size() && i < 25; ++i) printBlock("", over[i]);
}

bool SoakDriver::summarize(int skipped) const {
  printCurve();
  printBlocks();
  std::printf("\nErrors the app showed (%lld):\n", static_cast<long long>(m_shownErrors.size()));
  for (const QString& e : m_shownErrors) std::printf("  %s\n", qPrintable(e));
  std::printf("\nUnexpected failures (%lld):\n", static_cast<long long>(m_failures.size()));
  for (const QString& e : m_failures) std::printf("  %s\n", qPrintable(e));
  std::printf(
      "\nSummary: %d documents soaked (%d graph opens, %d profiles imported), %d files skipped, %lld errors "
      "shown, %lld unexpected failures\n",
      m_index, m_graphsOpened, m_profilesImported, skipped, static_cast<long long>(m_shownErrors.size()),
      static_cast<long long>(m_failures.size()));
  printBlock("worst UI block:", m_beat.worst());
  return m_failures.isEmpty();
}

}  // namespace flowscope::soak
