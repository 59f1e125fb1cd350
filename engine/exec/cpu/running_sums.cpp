// Running sums (running_sums.h).
#include "exec/cpu/running_sums.h"

#include <string>
#include <type_traits>

#include "base/thread_pool.h"
#include "exec/cpu/wrapping_arithmetic.h"
#include "exec/kernel_util.h"
#include "ir/dtype_dispatch.h"

namespace flowscope {

Expected<Tensor> runningSums(const Tensor& x, int axis, bool exclusive, bool reverse) {
  const AxisSplit split = splitAt(x.shape(), axis);
  const int64_t outer = split.outer, length = split.length, inner = split.inner;
  Tensor out = Tensor::uninitialized(x.dtype(), x.shape());
  const bool known = dispatchNumeric(x.dtype(), [&](auto tag) {
    using T = typename decltype(tag)::type;
    if constexpr (!std::is_same_v<T, bool>) {
      const T* in = x.data<T>();
      T* sums = out.data<T>();
      parallelFor(outer * inner, length, [&](int64_t begin, int64_t end) {
        for (int64_t series = begin; series < end; ++series) {
          const int64_t first = (series / inner) * length * inner + series % inner;
          T sum = T(0);
          for (int64_t step = 0; step < length; ++step) {
            const int64_t at = first + (reverse ? length - 1 - step : step) * inner;
            const T v = in[at];
            if (!exclusive) sum = wrappingAdd(sum, v);
            sums[at] = sum;
            if (exclusive) sum = wrappingAdd(sum, v);
          }
        }
      });
    }
  });
  if (!known || x.dtype() == DType::kBool)
    return invalidArgument("cannot sum " + std::string(dtypeName(x.dtype())) + " values");
  return out;
}

}  // namespace flowscope
