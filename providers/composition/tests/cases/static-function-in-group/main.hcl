group {
  function f {
    body = 1
  }
}
