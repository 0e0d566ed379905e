// jsdom's Blob has no arrayBuffer() (every browser has one): tests that read files import this,
// which reads through jsdom's FileReader instead.
if (typeof Blob.prototype.arrayBuffer !== 'function') {
  Blob.prototype.arrayBuffer = function (this: Blob) {
    return new Promise<ArrayBuffer>((resolve, reject) => {
      const reader = new FileReader();
      reader.onload = () => resolve(reader.result as ArrayBuffer);
      reader.onerror = () => reject(reader.error ?? new Error('unreadable blob'));
      reader.readAsArrayBuffer(this);
    });
  };
}
