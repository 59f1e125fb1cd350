// NumPy <-> engine tensors: zero-copy read-only views out, copies in.
#include <cstring>
#include <vector>

#include "binding.h"

namespace flowscope::py {
namespace {

DType dtypeOfNumpy(const pyb::dtype& dt) {
  const char kind = dt.kind();
  const auto size = static_cast<int>(dt.itemsize());
  switch (kind) {
    case 'b':
      return DType::kBool;
    case 'f':
      return size == 2 ? DType::kHalf : size == 4 ? DType::kFloat : size == 8 ? DType::kDouble : DType::kInvalid;
    case 'c':
      return size == 8 ? DType::kComplex64 : size == 16 ? DType::kComplex128 : DType::kInvalid;
    case 'i':
      return size == 1 ? DType::kInt8 : size == 2 ? DType::kInt16 : size == 4 ? DType::kInt32 : DType::kInt64;
    case 'u':
      return size == 1 ? DType::kUInt8 : size == 2 ? DType::kUInt16 : size == 4 ? DType::kUInt32 : DType::kUInt64;
    case 'S':
    case 'U':
    case 'O':
      return DType::kString;
    default:
      return DType::kInvalid;
  }
}

Shape shapeOf(const pyb::array& array) {
  std::vector<int64_t> dims;
  for (pyb::ssize_t k = 0; k < array.ndim(); ++k) dims.push_back(array.shape(k));
  return Shape(dims);
}

// bytes for 'S' and 'O' (bytes or str) items, UTF-8 for 'U' and str.
std::string itemBytes(pyb::handle item) {
  if (pyb::isinstance<pyb::bytes>(item)) return item.cast<std::string>();
  if (pyb::isinstance<pyb::str>(item)) return item.cast<std::string>();
  throw pyb::type_error("a string tensor takes bytes or str, not " +
                        std::string(pyb::str(item.get_type().attr("__name__"))));
}

flowscope::Tensor stringsFromNumpy(const pyb::array& array) {
  pyb::list flat = array.attr("ravel")().attr("tolist")();
  std::vector<std::string> values;
  values.reserve(flat.size());
  for (pyb::handle item : flat) values.push_back(itemBytes(item));
  return flowscope::Tensor::fromStrings(shapeOf(array), std::move(values));
}

}  // namespace

pyb::dtype numpyDType(DType dtype) {
  switch (dtype) {
    case DType::kBool:
      return pyb::dtype("bool");
    case DType::kHalf:
      return pyb::dtype("float16");
    case DType::kFloat:
      return pyb::dtype("float32");
    case DType::kDouble:
      return pyb::dtype("float64");
    case DType::kComplex64:
      return pyb::dtype("complex64");
    case DType::kComplex128:
      return pyb::dtype("complex128");
    case DType::kInt8:
      return pyb::dtype("int8");
    case DType::kInt16:
      return pyb::dtype("int16");
    case DType::kInt32:
      return pyb::dtype("int32");
    case DType::kInt64:
      return pyb::dtype("int64");
    case DType::kUInt8:
      return pyb::dtype("uint8");
    case DType::kUInt16:
      return pyb::dtype("uint16");
    case DType::kUInt32:
      return pyb::dtype("uint32");
    case DType::kUInt64:
      return pyb::dtype("uint64");
    default:
      throw pyb::type_error("NumPy has no dtype for " + std::string(dtypeName(dtype)) + " tensors");
  }
}

flowscope::Tensor tensorFromNumpy(const pyb::array& input) {
  const DType dtype = dtypeOfNumpy(input.dtype());
  if (dtype == DType::kInvalid)
    throw pyb::type_error("cannot convert a NumPy array of dtype " + std::string(pyb::str(input.dtype())) +
                          " to a tensor");
  if (dtype == DType::kString) return stringsFromNumpy(input);
  auto array = pyb::array::ensure(input, pyb::array::c_style | pyb::array::forcecast);
  flowscope::Tensor out = flowscope::Tensor::uninitialized(dtype, shapeOf(array));
  if (out.numElements() > 0) std::memcpy(out.mutableBytes().data(), array.data(), static_cast<size_t>(array.nbytes()));
  return out;
}

pyb::array numpyView(const flowscope::Tensor& value, pyb::handle owner) {
  std::vector<pyb::ssize_t> shape(value.shape().dims().begin(), value.shape().dims().end());
  if (value.isStringLike()) {
    pyb::list items;
    for (const auto& s : value.strings()) items.append(pyb::bytes(s));
    pyb::array flat = pyb::module_::import("numpy").attr("array")(items, "object");
    return flat.attr("reshape")(pyb::tuple(pyb::cast(shape)));
  }
  pyb::dtype dt = numpyDType(value.dtype());
  std::vector<pyb::ssize_t> strides(shape.size());
  pyb::ssize_t stride = dt.itemsize();
  for (size_t k = shape.size(); k-- > 0;) {
    strides[k] = stride;
    stride *= shape[k];
  }
  pyb::array view(dt, shape, strides, value.bytes().data(), owner);
  pyb::detail::array_proxy(view.ptr())->flags &= ~pyb::detail::npy_api::NPY_ARRAY_WRITEABLE_;  // tensors never change
  return view;
}

}  // namespace flowscope::py
