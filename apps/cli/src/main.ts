console.log('trufflepig');
