// ONNX tensors and shapes.
#include "io/onnx_tensor.h"

#include <algorithm>
#include <cctype>
#include <cstring>
#include <filesystem>

#include "base/strings.h"
#include "io/source.h"
#include "ops/onnx_dtypes.h"

namespace flowscope {
namespace {

// The external data entry of a tensor: where, from which byte, how many.
struct ExternalRef {
  std::string location;
  uint64_t offset = 0;
  int64_t length = -1;  // -1: to the end of the file
};

Expected<ExternalRef> externalRefOf(const onnx::TensorProto& proto) {
  ExternalRef ref;
  for (const auto& entry : proto.external_data()) {
    int64_t value = 0;
    if (entry.key() == "location") {
      ref.location = entry.value();
    } else if (entry.key() == "offset" || entry.key() == "length") {
      if (!parseInt64(entry.value(), &value) || value < 0)
        return invalidArgument("external data " + entry.key() + " '" + entry.value() + "' is not a byte count");
      if (entry.key() == "offset")
        ref.offset = static_cast<uint64_t>(value);
      else
        ref.length = value;
    }
  }
  if (ref.location.empty()) return invalidArgument("external data has no location");
  std::filesystem::path location(ref.location);
  if (location.is_absolute())
    return invalidArgument("external data location '" + ref.location + "' must be relative to the model");
  for (const auto& part : location)
    if (part == "..") return invalidArgument("external data location '" + ref.location + "' leaves the model's folder");
  return ref;
}

Expected<std::string> readExternal(const onnx::TensorProto& proto, const ExternalDataRoot& root, size_t expected) {
  FS_ASSIGN_OR_RETURN(ExternalRef ref, externalRefOf(proto));
  const std::string path = (std::filesystem::path(root.directory) / ref.location).string();
  std::error_code ec;
  const uint64_t size = std::filesystem::file_size(path, ec);
  if (ec) return notFound("external data file " + path + " is missing (" + ec.message() + ")");
  const uint64_t length = ref.length >= 0 ? static_cast<uint64_t>(ref.length) : size - std::min(size, ref.offset);
  if (length != expected)
    return invalidArgument("external data declares " + std::to_string(length) + " bytes, the tensor's shape needs " +
                           std::to_string(expected));
  if (ref.offset > size || size - ref.offset < length)
    return dataLoss("external data file " + path + " is " + std::to_string(size) + " bytes, shorter than offset " +
                    std::to_string(ref.offset) + " + length " + std::to_string(length));
  return readFileRange(path, ref.offset, length);
}

template <typename From, typename To>
void copyConverted(const google::protobuf::RepeatedField<From>& values, Tensor& t) {
  To* out = t.data<To>();
  for (int i = 0; i < values.size(); ++i) out[i] = static_cast<To>(values.Get(i));
}

// How many elements the typed field ONNX uses for this type holds.
int64_t typedCount(const onnx::TensorProto& p, DType dtype) {
  switch (dtype) {
    case DType::kFloat:
      return p.float_data_size();
    case DType::kComplex64:
      return p.float_data_size() / 2;
    case DType::kDouble:
      return p.double_data_size();
    case DType::kComplex128:
      return p.double_data_size() / 2;
    case DType::kInt64:
      return p.int64_data_size();
    case DType::kUInt32:
    case DType::kUInt64:
      return p.uint64_data_size();
    default:
      return p.int32_data_size();  // the narrow types, bool, and half and bfloat16 bits
  }
}

// Copies the typed field's values (typedCount() of them, checked by the caller) into the tensor.
void copyTypedField(const onnx::TensorProto& p, Tensor& t) {
  switch (t.dtype()) {
    case DType::kFloat:
    case DType::kComplex64:
      return copyConverted<float, float>(p.float_data(), t);
    case DType::kDouble:
    case DType::kComplex128:
      return copyConverted<double, double>(p.double_data(), t);
    case DType::kInt64:
      return copyConverted<int64_t, int64_t>(p.int64_data(), t);
    case DType::kUInt32:
      return copyConverted<uint64_t, uint32_t>(p.uint64_data(), t);
    case DType::kUInt64:
      return copyConverted<uint64_t, uint64_t>(p.uint64_data(), t);
    default:
      break;
  }
  switch (dtypeSize(t.dtype())) {
    case 1:
      return copyConverted<int32_t, uint8_t>(p.int32_data(), t);
    case 2:
      return copyConverted<int32_t, uint16_t>(p.int32_data(), t);
    default:
      return copyConverted<int32_t, int32_t>(p.int32_data(), t);
  }
}

Expected<Tensor> stringTensor(const onnx::TensorProto& proto, const Shape& shape) {
  if (proto.string_data_size() != shape.numElements())
    return invalidArgument("holds " + std::to_string(proto.string_data_size()) + " strings, its shape " +
                           shape.toString() + " needs " + std::to_string(shape.numElements()));
  return Tensor::fromStrings(shape, {proto.string_data().begin(), proto.string_data().end()});
}

Expected<Shape> shapeOfTensor(const onnx::TensorProto& proto) {
  std::vector<int64_t> dims(proto.dims().begin(), proto.dims().end());
  for (int64_t d : dims)
    if (d < 0) return invalidArgument("has a negative dimension in " + Shape(dims).toString());
  Shape shape(dims);
  if (shape.numElements() < 0) return outOfRange("shape " + shape.toString() + " has more elements than int64 counts");
  return shape;
}

}  // namespace

std::optional<DType> dtypeFromOnnx(int32_t type) { return dtypeFromOnnxCode(type); }

int32_t onnxTypeFromDType(DType dtype) { return onnxCodeOf(dtype); }

std::string onnxTypeString(const onnx::TypeProto& type) {
  const auto element = [](int32_t code) {
    std::string name = onnx::TensorProto::DataType_IsValid(code)
                           ? onnx::TensorProto::DataType_Name(static_cast<onnx::TensorProto::DataType>(code))
                           : std::to_string(code);
    std::transform(name.begin(), name.end(), name.begin(), [](unsigned char c) { return std::tolower(c); });
    return name;
  };
  switch (type.value_case()) {
    case onnx::TypeProto::kTensorType:
      return "tensor(" + element(type.tensor_type().elem_type()) + ")";
    case onnx::TypeProto::kSparseTensorType:
      return "sparse_tensor(" + element(type.sparse_tensor_type().elem_type()) + ")";
    case onnx::TypeProto::kSequenceType:
      return "seq(" + onnxTypeString(type.sequence_type().elem_type()) + ")";
    case onnx::TypeProto::kOptionalType:
      return "optional(" + onnxTypeString(type.optional_type().elem_type()) + ")";
    case onnx::TypeProto::kMapType:
      return "map(" + element(type.map_type().key_type()) + "," + onnxTypeString(type.map_type().value_type()) + ")";
    default:
      return "undefined";
  }
}

Shape shapeFromOnnx(const onnx::TensorShapeProto& proto, std::vector<std::string>* names) {
  std::vector<int64_t> dims;
  for (const auto& d : proto.dim()) {
    dims.push_back(d.has_dim_value() && d.dim_value() >= 0 ? d.dim_value() : Shape::kUnknownDim);
    if (names) names->push_back(d.has_dim_param() ? d.dim_param() : std::string());
  }
  return Shape(dims);
}

void shapeToOnnx(const Shape& shape, const std::vector<std::string>& names, onnx::TensorShapeProto* proto) {
  proto->Clear();
  for (int i = 0; i < shape.rank(); ++i) {
    auto* dim = proto->add_dim();
    if (shape.dim(i) >= 0)
      dim->set_dim_value(shape.dim(i));
    else if (static_cast<size_t>(i) < names.size() && !names[static_cast<size_t>(i)].empty())
      dim->set_dim_param(names[static_cast<size_t>(i)]);
  }
}

Expected<Tensor> tensorFromOnnx(const onnx::TensorProto& proto, const ExternalDataRoot& root) {
  auto dtype = dtypeFromOnnx(proto.data_type());
  if (!dtype)
    return invalidArgument("has element type " + std::to_string(proto.data_type()) + ", not an ONNX 1.12 type");
  if (proto.has_segment()) return unimplemented("is a segment of a larger tensor (not supported)");
  FS_ASSIGN_OR_RETURN(Shape shape, shapeOfTensor(proto));
  if (*dtype == DType::kString) return stringTensor(proto, shape);
  const size_t elementBytes = static_cast<size_t>(dtypeSize(*dtype));
  const auto count = static_cast<uint64_t>(shape.numElements());
  if (count > (uint64_t{1} << 62) / elementBytes)
    return outOfRange("shape " + shape.toString() + " is larger than any file can hold");
  const size_t bytes = static_cast<size_t>(count) * elementBytes;
  if (proto.data_location() == onnx::TensorProto::EXTERNAL) {
    FS_ASSIGN_OR_RETURN(std::string data, readExternal(proto, root, bytes));
    Tensor t = Tensor::persistent(*dtype, shape, false);
    std::memcpy(t.mutableBytes().data(), data.data(), bytes);
    return t;
  }
  if (proto.has_raw_data()) {
    if (proto.raw_data().size() != bytes)
      return invalidArgument("raw_data has " + std::to_string(proto.raw_data().size()) + " bytes, its shape " +
                             shape.toString() + " of " + std::string(dtypeName(*dtype)) + " needs " +
                             std::to_string(bytes));
    Tensor t = Tensor::persistent(*dtype, shape, false);
    if (bytes) std::memcpy(t.mutableBytes().data(), proto.raw_data().data(), bytes);
    return t;
  }
  // Typed fields: one value per element must be in the file, so the allocation is justified by its size.
  const int64_t have = typedCount(proto, *dtype);
  if (have != static_cast<int64_t>(count))
    return invalidArgument("holds " + std::to_string(have) + " values, its shape " + shape.toString() + " needs " +
                           std::to_string(count));
  Tensor t = Tensor::persistent(*dtype, shape, false);
  copyTypedField(proto, t);
  return t;
}

Status tensorToOnnx(const Tensor& tensor, onnx::TensorProto* proto) {
  const int32_t type = onnxTypeFromDType(tensor.dtype());
  if (type == onnx::TensorProto::UNDEFINED)
    return unimplemented("ONNX has no element type for " + std::string(dtypeName(tensor.dtype())));
  proto->set_data_type(type);
  for (int64_t d : tensor.shape().dims()) proto->add_dims(d);
  if (tensor.dtype() == DType::kString) {
    for (const auto& s : tensor.strings()) proto->add_string_data(s);
    return Status::ok();
  }
  proto->set_raw_data(reinterpret_cast<const char*>(tensor.bytes().data()), tensor.byteSize());
  return Status::ok();
}

}  // namespace flowscope
