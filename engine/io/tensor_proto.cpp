// TensorProto decoding and encoding.
#include "io/tensor_proto.h"

#include <cstring>

#include "base/strings.h"

namespace flowscope {
namespace {

// Fills `t` from a typed repeated field: values converted by `get`, the last repeated to the end.
template <typename Out, typename Field, typename Convert>
Status fillFrom(Tensor& t, const Field& field, Convert convert) {
  int64_t count = t.numElements();
  if (field.size() > count)
    return invalidArgument("holds " + std::to_string(field.size()) + " values but shape " + t.shape().toString() +
                           " has only " + std::to_string(count) + " elements");
  Out* out = t.data<Out>();
  for (int64_t i = 0; i < count; ++i) {
    if (field.empty()) break;
    int index = static_cast<int>(std::min<int64_t>(i, field.size() - 1));
    out[i] = convert(field.Get(index));
  }
  return Status::ok();
}

template <typename T>
T same(T v) {
  return v;
}

Status fillComplex(Tensor& t, const google::protobuf::RepeatedField<float>& f) {
  int64_t count = t.numElements();
  if (f.size() % 2) return invalidArgument("scomplex_val holds an odd number of floats");
  if (f.size() / 2 > count) return invalidArgument("scomplex_val holds more values than the shape has elements");
  float* out = t.data<float>();
  for (int64_t i = 0; i < count && !f.empty(); ++i) {
    int64_t pair = std::min<int64_t>(i, f.size() / 2 - 1);
    out[2 * i] = f.Get(static_cast<int>(2 * pair));
    out[2 * i + 1] = f.Get(static_cast<int>(2 * pair + 1));
  }
  return Status::ok();
}

Status fillComplex128(Tensor& t, const google::protobuf::RepeatedField<double>& f) {
  int64_t count = t.numElements();
  if (f.size() % 2) return invalidArgument("dcomplex_val holds an odd number of doubles");
  if (f.size() / 2 > count) return invalidArgument("dcomplex_val holds more values than the shape has elements");
  double* out = t.data<double>();
  for (int64_t i = 0; i < count && !f.empty(); ++i) {
    int64_t pair = std::min<int64_t>(i, f.size() / 2 - 1);
    out[2 * i] = f.Get(static_cast<int>(2 * pair));
    out[2 * i + 1] = f.Get(static_cast<int>(2 * pair + 1));
  }
  return Status::ok();
}

Status fillTyped(Tensor& t, const tensorflow::TensorProto& p) {
  switch (t.dtype()) {
    case DType::kFloat:
      return fillFrom<float>(t, p.float_val(), same<float>);
    case DType::kDouble:
      return fillFrom<double>(t, p.double_val(), same<double>);
    case DType::kInt32:
    case DType::kQInt32:
      return fillFrom<int32_t>(t, p.int_val(), same<int32_t>);
    case DType::kInt16:
    case DType::kQInt16:
      return fillFrom<int16_t>(t, p.int_val(), [](int32_t v) { return static_cast<int16_t>(v); });
    case DType::kUInt16:
    case DType::kQUInt16:
      return fillFrom<uint16_t>(t, p.int_val(), [](int32_t v) { return static_cast<uint16_t>(v); });
    case DType::kInt8:
    case DType::kQInt8:
      return fillFrom<int8_t>(t, p.int_val(), [](int32_t v) { return static_cast<int8_t>(v); });
    case DType::kUInt8:
    case DType::kQUInt8:
      return fillFrom<uint8_t>(t, p.int_val(), [](int32_t v) { return static_cast<uint8_t>(v); });
    case DType::kInt64:
      return fillFrom<int64_t>(t, p.int64_val(), same<int64_t>);
    case DType::kUInt32:
      return fillFrom<uint32_t>(t, p.uint32_val(), same<uint32_t>);
    case DType::kUInt64:
      return fillFrom<uint64_t>(t, p.uint64_val(), same<uint64_t>);
    case DType::kBool:
      return fillFrom<uint8_t>(t, p.bool_val(), [](bool v) { return static_cast<uint8_t>(v); });
    case DType::kHalf:
    case DType::kBFloat16:
      return fillFrom<uint16_t>(t, p.half_val(), [](int32_t v) { return static_cast<uint16_t>(v); });
    case DType::kComplex64:
      return fillComplex(t, p.scomplex_val());
    case DType::kComplex128:
      return fillComplex128(t, p.dcomplex_val());
    default:
      if (dtypeSize(t.dtype()) == 1 && !p.float8_val().empty()) {
        size_t n = std::min<size_t>(p.float8_val().size(), static_cast<size_t>(t.numElements()));
        std::memcpy(t.mutableBytes().data(), p.float8_val().data(), n);
        return Status::ok();
      }
      return Status::ok();
  }
}

template <typename Message>
std::vector<std::string> serializeAll(const google::protobuf::RepeatedPtrField<Message>& items) {
  std::vector<std::string> out;
  for (const auto& item : items) out.push_back(item.SerializeAsString());
  return out;
}

Expected<Tensor> stringTensorFromProto(DType dtype, const Shape& shape, const tensorflow::TensorProto& p,
                                       size_t maxBytes) {
  FS_ASSIGN_OR_RETURN(size_t bytes, Tensor::checkedByteSize(dtype, shape, maxBytes));
  (void)bytes;
  std::vector<std::string> values = dtype == DType::kString
                                        ? std::vector<std::string>(p.string_val().begin(), p.string_val().end())
                                    : dtype == DType::kResource ? serializeAll(p.resource_handle_val())
                                                                : serializeAll(p.variant_val());
  auto count = static_cast<size_t>(shape.numElements());
  if (values.size() > count)
    return invalidArgument("holds " + std::to_string(values.size()) + " values but shape " + shape.toString() +
                           " has only " + std::to_string(count) + " elements");
  std::string fill = values.empty() ? std::string() : values.back();
  values.resize(count, fill);
  return Tensor::fromStrings(shape, std::move(values), dtype);
}

template <typename T>
bool allEqual(const Tensor& t) {
  const T* d = t.data<T>();
  for (int64_t i = 1; i < t.numElements(); ++i)
    if (std::memcmp(&d[i], &d[0], sizeof(T)) != 0) return false;
  return true;
}

bool allElementsEqual(const Tensor& t) {
  switch (dtypeSize(t.dtype())) {
    case 1:
      return allEqual<uint8_t>(t);
    case 2:
      return allEqual<uint16_t>(t);
    case 4:
      return allEqual<uint32_t>(t);
    case 8:
      return allEqual<uint64_t>(t);
    default:
      return false;
  }
}

void writeSingleValue(const Tensor& t, tensorflow::TensorProto* p) {
  switch (t.dtype()) {
    case DType::kFloat:
      p->add_float_val(t.data<float>()[0]);
      break;
    case DType::kDouble:
      p->add_double_val(t.data<double>()[0]);
      break;
    case DType::kInt32:
    case DType::kQInt32:
      p->add_int_val(t.data<int32_t>()[0]);
      break;
    case DType::kInt16:
    case DType::kQInt16:
      p->add_int_val(t.data<int16_t>()[0]);
      break;
    case DType::kUInt16:
    case DType::kQUInt16:
      p->add_int_val(t.data<uint16_t>()[0]);
      break;
    case DType::kInt8:
    case DType::kQInt8:
      p->add_int_val(t.data<int8_t>()[0]);
      break;
    case DType::kUInt8:
    case DType::kQUInt8:
      p->add_int_val(t.data<uint8_t>()[0]);
      break;
    case DType::kInt64:
      p->add_int64_val(t.data<int64_t>()[0]);
      break;
    case DType::kUInt32:
      p->add_uint32_val(t.data<uint32_t>()[0]);
      break;
    case DType::kUInt64:
      p->add_uint64_val(t.data<uint64_t>()[0]);
      break;
    case DType::kBool:
      p->add_bool_val(t.data<uint8_t>()[0] != 0);
      break;
    case DType::kHalf:
    case DType::kBFloat16:
      p->add_half_val(t.data<uint16_t>()[0]);
      break;
    default: {
      auto bytes = t.bytes();
      p->set_tensor_content(reinterpret_cast<const char*>(bytes.data()), bytes.size());
    }
  }
}

bool hasSingleValueField(DType dtype) {
  return dtype != DType::kComplex64 && dtype != DType::kComplex128 && dtypeSize(dtype) > 0 &&
         dtype < DType::kFloat8E5M2;
}

}  // namespace

DType dtypeFromProto(int value) {
  auto dtype = dtypeFromWire(value);
  return dtype ? *dtype : DType::kInvalid;
}

Expected<Shape> shapeFromProto(const tensorflow::TensorShapeProto& proto) {
  if (proto.unknown_rank()) {
    if (proto.dim_size() > 0) return invalidArgument("shape has unknown_rank set and also lists dims");
    return Shape::unknownRank();
  }
  std::vector<int64_t> dims;
  dims.reserve(static_cast<size_t>(proto.dim_size()));
  for (const auto& d : proto.dim()) {
    if (d.size() < -1) return invalidArgument("shape has invalid dim size " + std::to_string(d.size()));
    dims.push_back(d.size());
  }
  return Shape(std::move(dims));
}

void shapeToProto(const Shape& shape, tensorflow::TensorShapeProto* proto) {
  proto->Clear();
  if (shape.hasUnknownRank()) {
    proto->set_unknown_rank(true);
    return;
  }
  for (int64_t d : shape.dims()) proto->add_dim()->set_size(d);
}

Expected<Tensor> tensorFromProto(const tensorflow::TensorProto& p, size_t maxBytes) {
  DType dtype = dtypeFromProto(p.dtype());
  if (dtype == DType::kInvalid) return invalidArgument("tensor has invalid dtype " + std::to_string(p.dtype()));
  FS_ASSIGN_OR_RETURN(Shape shape, shapeFromProto(p.tensor_shape()));
  if (!shape.isFullyDefined()) return invalidArgument("tensor shape " + shape.toString() + " is not fully defined");
  if (dtype == DType::kString || dtype == DType::kResource || dtype == DType::kVariant)
    return stringTensorFromProto(dtype, shape, p, maxBytes);
  if (!p.tensor_content().empty()) {
    FS_ASSIGN_OR_RETURN(size_t bytes, Tensor::checkedByteSize(dtype, shape, static_cast<size_t>(1) << 62));
    if (bytes != p.tensor_content().size())
      return invalidArgument("tensor_content has " + std::to_string(p.tensor_content().size()) + " bytes but " +
                             std::string(dtypeName(dtype)) + " " + shape.toString() + " needs " +
                             std::to_string(bytes));
    Tensor t = Tensor::persistent(dtype, shape, false);
    std::memcpy(t.mutableBytes().data(), p.tensor_content().data(), bytes);
    return t;
  }
  FS_ASSIGN_OR_RETURN(size_t bytes, Tensor::checkedByteSize(dtype, shape, maxBytes));
  (void)bytes;
  Tensor t = Tensor::persistent(dtype, shape);
  FS_RETURN_IF_ERROR(fillTyped(t, p));
  return t;
}

void tensorToProto(const Tensor& t, tensorflow::TensorProto* p) {
  p->Clear();
  p->set_dtype(static_cast<tensorflow::DataType>(t.dtype()));
  shapeToProto(t.shape(), p->mutable_tensor_shape());
  if (!t.isValid() || t.numElements() == 0) return;
  if (t.dtype() == DType::kString) {
    const auto& strings = t.strings();
    bool same = std::all_of(strings.begin(), strings.end(), [&](const std::string& s) { return s == strings[0]; });
    if (same)
      p->add_string_val(strings[0]);
    else
      for (const auto& s : strings) p->add_string_val(s);
    return;
  }
  if (t.dtype() == DType::kResource) {
    for (const auto& s : t.strings()) p->add_resource_handle_val()->ParseFromString(s);
    return;
  }
  if (t.dtype() == DType::kVariant) {
    for (const auto& s : t.strings()) p->add_variant_val()->ParseFromString(s);
    return;
  }
  if (hasSingleValueField(t.dtype()) && allElementsEqual(t)) {
    writeSingleValue(t, p);
    return;
  }
  auto bytes = t.bytes();
  p->set_tensor_content(reinterpret_cast<const char*>(bytes.data()), bytes.size());
}

}  // namespace flowscope
