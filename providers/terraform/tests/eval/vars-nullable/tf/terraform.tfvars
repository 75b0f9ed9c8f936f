nonnull = null
nullok = null
