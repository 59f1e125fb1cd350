// Activations shared by the fused shaders: 0 none, 1 Relu, 2 Relu6, 3 Elu, 4 LeakyRelu(alpha), 5 Tanh, 6 Sigmoid.
float activate(float x, uint act, float alpha) {
  switch (act) {
    case 1u: return max(x, 0.0);
    case 2u: return clamp(x, 0.0, 6.0);
    case 3u: return x > 0.0 ? x : exp(x) - 1.0;
    case 4u: return x > 0.0 ? x : alpha * x;
    case 5u: return tanh(x);
    case 6u: return 1.0 / (1.0 + exp(-x));
  }
  return x;
}
